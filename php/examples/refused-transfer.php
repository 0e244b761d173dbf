<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Baas\Client\Client;
use Baas\Client\Enums\{Currency, ResultCode};
use Baas\Runtime\{Config, Decimal, Outcome};
use Baas\Runtime\Exception\{BaasException, InvalidRequest};
use Baas\Signing\PrivateKey;

$key = PrivateKey::fromEnv('BAAS_PRIVATE_KEY') ?? throw new RuntimeException('BAAS_PRIVATE_KEY is not set');
$client = new Client(new Config(getenv('BAAS_URL') ?: 'https://baas.example.com', getenv('BAAS_SENDER') ?: 'your-sender', $key));

try {
    $client->applyForTransfer(payerAccountId: '1000000001', payeeBankCode: '46', payeeAccountId: '1000000004',
        currency: Currency::Kes, amount: Decimal::of('999999999.00'));
} catch (InvalidRequest $e) {
    echo "not sent: {$e->getMessage()}\n"; // names each field and rule
} catch (BaasException $e) {
    match ($e->outcome()) {
        Outcome::Refused => print('refused: ' . (ResultCode::of($e) === ResultCode::InsufficientBalance ? 'insufficient balance' : $e->apiCode()) . "\n"),
        Outcome::Unknown => print("unknown outcome: look up requestId {$e->requestId()} before sending again\n"),
        Outcome::NotSent => print("not sent: {$e->getMessage()}\n"),
    };
}
