<?php

declare(strict_types=1);

// The loopback HTTP server of TransportTest (`php -S 127.0.0.1:PORT router.php`): each path
// answers one way.
$path = (string) parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
$body = (string) file_get_contents('php://input');
switch ($path) {
    case '/echo':
        header('Content-Type: application/json');
        echo json_encode(['method' => $_SERVER['REQUEST_METHOD'], 'type' => $_SERVER['CONTENT_TYPE'] ?? '', 'body' => $body]);
        break;
    case '/status':
        http_response_code(503);
        echo 'unavailable';
        break;
    case '/slow':
        sleep(2);
        echo 'late';
        break;
    case '/big':
        echo str_repeat('x', 200000);
        break;
    case '/chunked':
        header('Transfer-Encoding: chunked');
        echo "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
        break;
    default:
        http_response_code(404);
        echo 'no such path';
}
