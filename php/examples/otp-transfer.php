<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Baas\Client\Client;
use Baas\Client\Enums\{Currency, OtpType, TxStatus};
use Baas\Runtime\{Config, Decimal, WaitPolicy};
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Runtime\Settlement\{NotConfirmed, StillUnknown};
use Baas\Signing\PrivateKey;

$key = PrivateKey::fromEnv('BAAS_PRIVATE_KEY') ?? throw new RuntimeException('BAAS_PRIVATE_KEY is not set');
$client = new Client(new Config(getenv('BAAS_URL') ?: 'https://baas.example.com', getenv('BAAS_SENDER') ?: 'your-sender', $key));

$pending = $client->applyForTransferPending(
    payerAccountId: '1000000001', payeeBankCode: '46', payeeAccountId: '1000000004',
    currency: Currency::Kes, amount: Decimal::of('250.00'), remark: 'invoice 42',
);
$pending->sendOtp(OtpType::Sms);
echo "OTP sent for {$pending->businessId}\n";
$otp = trim((string) fgets(STDIN)); // the OTP your customer received
try {
    $pending->confirm($otp);
} catch (OutcomeUnknown) {
    // It may have arrived: never confirm twice blindly; settle it with one lookup.
    $settled = $pending->settle();
    if ($settled instanceof NotConfirmed) {
        $pending->confirm($otp); // never arrived: the same OTP, as $settled->otpRule says
    } elseif ($settled instanceof StillUnknown) {
        throw $settled->error; // the lookup failed too: settle later
    } // Confirmed: it arrived; wait for the result below
}
$result = $client->getTransResultUntilFinal(txId: $pending->businessId, policy: new WaitPolicy(firstDelay: 1, maxDelay: 20, deadline: 300));
echo $result->txStatus === TxStatus::Succeeded ? "transfer succeeded\n" : "transfer did not succeed\n";
