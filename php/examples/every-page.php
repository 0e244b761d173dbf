<?php

declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Baas\Client\Client;
use Baas\Client\Enums\OrderByDesc;
use Baas\Runtime\{Config, Decimal};
use Baas\Signing\PrivateKey;

$key = PrivateKey::fromEnv('BAAS_PRIVATE_KEY') ?? throw new RuntimeException('BAAS_PRIVATE_KEY is not set');
$client = new Client(new Config(getenv('BAAS_URL') ?: 'https://baas.example.com', getenv('BAAS_SENDER') ?: 'your-sender', $key));

// Every item of every page, fetched as the loop reads them; totals exact, per type.
$totals = [];
$rows = $client->getTransListItems(accountId: '1000000001', txType: [], txStatus: [], startTime: 0,
    endTime: 4_102_444_800_000, pageNo: 1, pageSize: 50, orderByDesc: OrderByDesc::NewestFirst);
foreach ($rows as $row) {
    $type = $row->txType?->value ?? '?'; // a TxType case or an UnknownValue: both hold the code
    $totals[$type] = ($totals[$type] ?? Decimal::zero())->plus($row->amount ?? '0');
}
foreach ($totals as $type => $total) {
    echo "$type: $total\n";
}
