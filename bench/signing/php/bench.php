<?php

/*
 * bench/signing/php/run BODIES_DIR: for each body of the manifest, A (Baas\Signing\Signer::verify),
 * B (the floor: json_decode of the bytes plus hash('sha256') of a string as long as the canonical
 * string) and C (the signer a partner writes in 30 lines: json_decode, recursive flatten, sort,
 * join, sha256), timed in alternating rounds with hrtime (medians per call), and the peak memory
 * of one A call and one C call (memory_reset_peak_usage() then memory_get_peak_usage(), PHP 8.2+:
 * the peak above what was allocated before the call), as a multiple of the body's size.
 */

declare(strict_types=1);

require dirname(__DIR__, 3) . '/php/autoload.php';

use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;

/** The naive signer (C): what a partner writes from the document in 30 lines. */
function naive_flatten(string $prefix, mixed $value, array &$out): void
{
    if (is_array($value)) {
        $list = array_is_list($value);
        foreach ($value as $k => $v) {
            naive_flatten($list ? "{$prefix}[{$k}]" : ($prefix === '' ? (string) $k : "{$prefix}.{$k}"), $v, $out);
        }
    } elseif (is_string($value)) {
        $out[] = "{$prefix}={$value}";
    } elseif ($value !== null) {
        $out[] = $prefix . '=' . json_encode($value);
    }
}

function naive_verify(string $body, string $key): bool
{
    $data = json_decode($body, true);
    $signature = $data['signature'] ?? '';
    unset($data['signature']);
    $pairs = [];
    naive_flatten('', $data, $pairs);
    $pairs[] = "senderKey={$key}";
    sort($pairs, SORT_STRING);
    return hash_equals(hash('sha256', implode('&', $pairs)), $signature);
}

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

/** Peak bytes allocated by one call, above what was allocated before it. */
function peak(callable $f): int
{
    gc_collect_cycles();
    memory_reset_peak_usage();
    $before = memory_get_usage();
    $f();
    return memory_get_peak_usage() - $before;
}

if (PHP_VERSION_ID < 80200) {
    fwrite(STDERR, "bench: PHP 8.2 or later is needed (memory_reset_peak_usage)\n");
    exit(2);
}
$dir = $argv[1] ?? exit(2);
$manifest = json_decode((string) file_get_contents("$dir/manifest.json"), true, 512, JSON_THROW_ON_ERROR);
$failed = 0;
foreach ($manifest as $entry) {
    $body = (string) file_get_contents("$dir/{$entry['file']}");
    $secret = $entry['key'];
    $key = new PrivateKey($secret);
    $filler = str_repeat('x', $entry['canonical_bytes']);
    $a = static function () use ($body, $key): void {
        Signer::verify($body, $key);
    };
    $b = static function () use ($body, $filler): void {
        json_decode($body, true);
        hash('sha256', $filler);
    };
    $c = static function () use ($body, $secret): void {
        naive_verify($body, $secret);
    };
    try {
        Signer::verify($body, $key);
    } catch (\Throwable $e) {
        fwrite(STDERR, "bench: {$entry['name']}: the SDK's verify refuses the manifest's signature: {$e->getMessage()}\n");
        $failed = 1;
        continue;
    }
    if (Signer::sign($body, $key) !== $entry['signature'] || !naive_verify($body, $secret)) {
        fwrite(STDERR, "bench: {$entry['name']}: a signature disagrees with the manifest\n");
        $failed = 1;
        continue;
    }
    // Calls per round: about 20 ms of the naive signer.
    $t = hrtime(true);
    $c();
    $per = max(1, (int) (20e6 / max(1, hrtime(true) - $t)));
    $rounds = (int) (getenv('BAAS_BENCH_ROUNDS') ?: 21);
    $times = ['a' => [], 'b' => [], 'c' => []];
    foreach (['a' => $a, 'b' => $b, 'c' => $c] as $f) {
        $f(); // warm
    }
    for ($r = 0; $r < $rounds; $r++) {
        foreach (['a' => $a, 'b' => $b, 'c' => $c] as $name => $f) {
            $t = hrtime(true);
            for ($i = 0; $i < $per; $i++) {
                $f();
            }
            $times[$name][] = (hrtime(true) - $t) / $per;
        }
    }
    $bytes = strlen($body);
    $row = [
        'lang' => 'php',
        'body' => $entry['name'],
        'a_ns' => median($times['a']),
        'b_ns' => median($times['b']),
        'c_ns' => median($times['c']),
        'mem_a' => peak($a) / $bytes,
        'mem_c' => peak($c) / $bytes,
        'rounds' => $rounds,
        'floor' => 'json_decode($body, true) + hash(\'sha256\') of a string as long as the canonical string (PHP '
            . PHP_VERSION . ', php -n); memory: memory_reset_peak_usage() and memory_get_peak_usage() around one call',
    ];
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
}
exit($failed);
