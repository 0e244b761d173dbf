<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Baas\Client\Notifications;
use Baas\Runtime\Notification\{FileProcessedStore, NotificationHandler};
use Baas\Signing\{Notification, NotificationException, NotificationVerifier, PrivateKey};

// Your callback URL: verifies the exact bytes, processes each notification once, answers `ok`.
$key = PrivateKey::fromEnv('BAAS_PRIVATE_KEY') ?? throw new RuntimeException('BAAS_PRIVATE_KEY is not set');
$handler = new NotificationHandler(
    // The service's sender name: the sandbox's is `baas-sandbox` (its banner prints it,
    // `SandboxProcess::SERVICE_SENDER`); the live service's comes from your bank.
    new NotificationVerifier($key, getenv('BAAS_SERVICE_SENDER') ?: 'baas-sandbox'),
    new FileProcessedStore(__DIR__ . '/var/baas-processed'),
    function (Notification $n): void {
        $payload = Notifications::payload($n); // e.g. a ClosingBalanceReport for 0015
        file_put_contents(__DIR__ . '/var/processed.log', "{$n->notificationType} {$n->requestId} " . get_debug_type($payload) . "\n", FILE_APPEND);
    },
);
try {
    echo $handler->handle((string) file_get_contents('php://input'));
} catch (NotificationException $e) {
    http_response_code(400); // forged, tampered, stale or from another sender
    echo 'refused';
}
