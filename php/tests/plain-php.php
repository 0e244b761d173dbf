<?php

declare(strict_types=1);

/*
 * The runtime on a PHP with no extension loaded but what `php -n` keeps (run as
 * `php -n tests/plain-php.php`): no curl, mbstring, bcmath or PDO. A client call through the
 * mock (sign, verify, decode, money), a refusal, paging, and a notification handled and stored.
 * Exits 0 when every check holds.
 */

require_once __DIR__ . '/Runtime/bootstrap.php';

use Baas\Runtime\Decimal;
use Baas\Runtime\Envelope;
use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Notification\FileProcessedStore;
use Baas\Runtime\Notification\NotificationHandler;
use Baas\Runtime\Outcome;
use Baas\Runtime\Testing\Refusal;
use Baas\Runtime\Tests\Fixtures\ApplyForTransferRequest;
use Baas\Runtime\Tests\Fixtures\Currency;
use Baas\Runtime\Tests\Fixtures\GetAccountDetailsRequest;
use Baas\Runtime\Tests\Fixtures\GetTransListRequest;
use Baas\Runtime\Tests\Support;
use Baas\Runtime\WireObject;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;

function check(string $what, bool $ok): void
{
    if (!$ok) {
        fwrite(STDERR, "FAIL plain-php: $what\n");
        exit(1);
    }
}

foreach (['curl', 'mbstring', 'bcmath', 'gmp', 'PDO', 'intl', 'ctype', 'iconv'] as $extension) {
    check("ext-$extension is not loaded (run with php -n)", !extension_loaded($extension));
}
$mock = Support::mock();
$mock->on(GetAccountDetailsRequest::class, fn () => ['balance' => '250000.00', 'currency' => 'KES']);
$mock->on(ApplyForTransferRequest::class, fn () => new Refusal('20001', 'Insufficient balance'));
$mock->on(GetTransListRequest::class, fn ($p) => ['totalRows' => 3, 'result' => [['txId' => 'T' . $p->get('pageNo'), 'amount' => '0.10']]]);
$client = Support::client($mock);
$account = $client->execute(new GetAccountDetailsRequest('1000000001'));
check('a query decodes the exact balance', (string) $account->balance === '250000.00' && $account->currency === Currency::Kes);
try {
    $client->execute(new ApplyForTransferRequest('1000000001', '46', '07', Currency::Kes, Decimal::of('1.00')));
    check('a refusal throws', false);
} catch (ApiError $e) {
    check('a signed refusal is Refused', $e->outcome() === Outcome::Refused && $e->apiCode() === '20001');
}
$total = Decimal::zero();
foreach ($client->items(new GetTransListRequest('1', [], [], 0, 1, 1, 1)) as $item) {
    $total = $total->plus($item->amount);
}
check('every page is read and summed exactly', (string) $total === '0.30');
$file = sys_get_temp_dir() . '/baas-plain-php-' . bin2hex(random_bytes(4));
$key = new PrivateKey(Support::KEY);
$processed = 0;
$handler = new NotificationHandler(new NotificationVerifier($key, 'baas-sandbox'), new FileProcessedStore($file), function () use (&$processed): void {
    $processed++;
});
$body = Envelope::sign(new WireObject(['requestId' => 'N1', 'sender' => 'baas-sandbox', 'notificationType' => '0028', 'timestamp' => Envelope::nowMillis(), 'salt' => 's1', 'params' => new WireObject()]), $key);
check('a notification is answered ok twice and processed once', $handler->handle($body) === 'ok' && $handler->handle($body) === 'ok' && $processed === 1);
unlink($file);
// The generated client too, when it sits beside this runtime (generated/php).
if (class_exists(\Baas\Client\Client::class)) {
    $mock->on(\Baas\Client\Account\GetAccountDetailsRequest::class, fn () => ['balance' => '7.00', 'currency' => 'KES']);
    $generated = new \Baas\Client\Client(new \Baas\Runtime\Config('https://baas.example.com', 'partner1', $key), $mock);
    $details = $generated->getAccountDetails(accountId: '1');
    check('the generated client reads the balance', (string) $details->balance === '7.00' && $details->currency === \Baas\Client\Enums\Currency::Kes);
}
echo 'plain-php: the runtime', class_exists(\Baas\Client\Client::class) ? ' and the generated client work' : ' works', ' on PHP ', PHP_VERSION, ' with only ', implode(' ', get_loaded_extensions()), "\n";
