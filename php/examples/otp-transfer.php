<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Baas\Client\Client;
use Baas\Client\Enums\{Currency, OtpType, TxStatus};
use Baas\Runtime\{Config, Decimal, WaitPolicy};
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Signing\PrivateKey;

$key = PrivateKey::fromEnv('BAAS_PRIVATE_KEY') ?? throw new RuntimeException('BAAS_PRIVATE_KEY is not set');
$client = new Client(new Config(getenv('BAAS_URL') ?: 'https://baas.example.com', getenv('BAAS_SENDER') ?: 'your-sender', $key));

$pending = $client->applyForTransferPending(
    payerAccountId: '1000000001', payeeBankCode: '46', payeeAccountId: '1000000004',
    currency: Currency::Kes, amount: Decimal::of('250.00'), remark: 'invoice 42',
);
$pending->sendOtp(OtpType::Sms);
echo "OTP sent for {$pending->businessId}\n";
try {
    $pending->confirm(trim((string) fgets(STDIN))); // the OTP your customer received
} catch (OutcomeUnknown) {
    // It may have arrived: never confirm twice; the status below tells.
}
$result = $client->getTransResultUntilFinal(txId: $pending->businessId, policy: new WaitPolicy(firstDelay: 1, maxDelay: 20, deadline: 300));
echo $result->txStatus === TxStatus::Succeeded ? "transfer succeeded\n" : "transfer did not succeed\n";
