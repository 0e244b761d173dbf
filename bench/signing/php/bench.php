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

use Baas\Signing\FastReader;
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
// F: the fixed cost of A beyond C on a body of two members (calls of PHP per body, whatever its size).
$tinyKey = new PrivateKey('partner-secret-key');
$tiny = Signer::attach('{"a":"b","c":{"d":"e"}}', $tinyKey);
$fixed = [];
for ($r = 0; $r < 15; $r++) {
    $t = hrtime(true);
    for ($i = 0; $i < 2000; $i++) {
        Signer::verify($tiny, $tinyKey);
    }
    $mid = hrtime(true);
    for ($i = 0; $i < 2000; $i++) {
        naive_verify($tiny, 'partner-secret-key');
    }
    $fixed[] = (2 * $mid - $t - hrtime(true)) / 2000;
}
$fixedNs = max(0.0, median($fixed));
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
    // S: the scans of the raw bytes that make up for what json_decode drops (numbers rewritten
    // as strings, objects' sizes counted, quotes counted), timed alone.
    $number = (new \ReflectionClassConstant(FastReader::class, 'NUMBER'))->getValue();
    $structure = new \ReflectionMethod(FastReader::class, 'structureFits');
    $s = static function () use ($body, $number, $structure): void {
        if (substr_count($body, ':') > FastReader::MAX_MEMBERS) {
            $structure->invoke(null, $body);
        }
        substr_count((string) preg_replace($number, '"$0"', $body), '"');
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
    $times = ['a' => [], 'b' => [], 'c' => [], 's' => []];
    foreach (['a' => $a, 'b' => $b, 'c' => $c, 's' => $s] as $f) {
        $f(); // warm
    }
    for ($r = 0; $r < $rounds; $r++) {
        foreach (['a' => $a, 'b' => $b, 'c' => $c, 's' => $s] as $name => $f) {
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
    if ($row['a_ns'] > $row['c_ns']) {
        $scans = median($times['s']);
        $row['stops'] = sprintf(
            'json_decode (in C) keeps no number literal, keeps the last of repeated keys and hashes keys '
            . 'without a secret (one object of many chosen keys would make it quadratic): the scans of the raw '
            . 'bytes that make up for it, also in C (numbers rewritten as strings, objects\' sizes, quotes '
            . 'counted), cost %.1f us (%.0f%% of C); and A\'s calls of PHP per body, whatever its size (the '
            . 'senderKey pair placed, the top-level signature checked, remembered key orders looked up), '
            . 'cost %.1f us more than C\'s on a two-member body (%.0f%% of C); without both A/C would be %.2f, '
            . 'the rest being the writing of the pairs itself, which on a body this small costs about what '
            . 'C\'s recursion does',
            $scans / 1e3,
            100 * $scans / $row['c_ns'],
            $fixedNs / 1e3,
            100 * $fixedNs / $row['c_ns'],
            ($row['a_ns'] - $scans - $fixedNs) / $row['c_ns'],
        );
    }
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
}
exit($failed);
