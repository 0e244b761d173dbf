<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Baas\Client\Client;
use Baas\Runtime\Config;
use Baas\Signing\PrivateKey;

// The key from your account manager: from the environment, never from code.
$key = PrivateKey::fromEnv('BAAS_PRIVATE_KEY') ?? throw new RuntimeException('BAAS_PRIVATE_KEY is not set');
$client = new Client(new Config(getenv('BAAS_URL') ?: 'https://baas.example.com', getenv('BAAS_SENDER') ?: 'your-sender', $key));

$account = $client->getAccountDetails(accountId: '1000000001');
echo "balance: {$account->balance} {$account->currency?->value}\n"; // exact decimal text, never a float
