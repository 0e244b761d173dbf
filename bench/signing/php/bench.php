<?php

/*
 * bench/signing/php/run BODIES_DIR: for each body of the manifest, A (Baas\Signing\Signer::verify),
 * B (the floor: json_decode of the bytes plus the SDK's SHA-256, Baas\Signing\Sha256: OpenSSL's
 * when the extension is loaded, of a string as long as the canonical string) and C (the signer a
 * partner writes in 30 lines: json_decode, recursive flatten, sort, join, hash('sha256')), timed
 * in alternating rounds with hrtime (medians per call), and the peak memory of one A call and one
 * C call (memory_reset_peak_usage() then memory_get_peak_usage(), PHP 8.2+: the peak above what was
 * allocated before the call), as a multiple of the body's size. Also timed in the same rounds: A
 * with hash('sha256') as the SDK's SHA-256 (A#), printed as a metric against C (the same SHA-256
 * on both sides: what the reading itself gains).
 */

declare(strict_types=1);

require dirname(__DIR__, 3) . '/php/autoload.php';

use Baas\Signing\FastReader;
use Baas\Signing\PrivateKey;
use Baas\Signing\Sha256;
use Baas\Signing\Signer;
use Baas\Signing\Structure;

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
$openssl = Sha256::openssl();
$number = (new \ReflectionClassConstant(FastReader::class, 'NUMBER'))->getValue();
$fraction = (new \ReflectionClassConstant(FastReader::class, 'FRACTION_OR_MINUS_ZERO'))->getValue();
foreach ($manifest as $entry) {
    $body = (string) file_get_contents("$dir/{$entry['file']}");
    $secret = $entry['key'];
    $key = new PrivateKey($secret);
    $filler = str_repeat('x', $entry['canonical_bytes']);
    $a = static function () use ($body, $key): void {
        Signer::verify($body, $key);
    };
    $aHash = static function () use ($body, $key, $openssl): void {
        Sha256::useOpenssl(false);
        Signer::verify($body, $key);
        Sha256::useOpenssl($openssl);
    };
    $b = static function () use ($body, $filler): void {
        json_decode($body, true);
        Sha256::of($filler);
    };
    $c = static function () use ($body, $secret): void {
        naive_verify($body, $secret);
    };
    // S: the scans of the raw bytes that make up for what json_decode drops (objects' sizes
    // counted, fractions looked for, numbers rewritten as strings where there are some, quotes
    // counted), timed alone.
    $s = static function () use ($body, $number, $fraction): void {
        if (substr_count($body, ':') > FastReader::MAX_MEMBERS) {
            Structure::fits($body, strpos($body, '\\') !== false);
        }
        if (strlen($body) <= 8192 && preg_match($fraction, $body) === 0) {
            substr_count($body, '"');
        } else {
            substr_count((string) preg_replace($number, '"$0"', $body), '"');
        }
    };
    try {
        Signer::verify($body, $key);
        $aHash();
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
    $all = ['a' => $a, 'ah' => $aHash, 'b' => $b, 'c' => $c, 's' => $s];
    $times = array_fill_keys(array_keys($all), []);
    foreach ($all as $f) {
        $f(); // warm
    }
    for ($r = 0; $r < $rounds; $r++) {
        foreach ($all as $name => $f) {
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
        'floor' => 'json_decode($body, true) + the SDK\'s SHA-256 (' . ($openssl ? 'OpenSSL\'s openssl_digest' : 'hash()')
            . ') of a string as long as the canonical string (PHP ' . PHP_VERSION . ', php -n); C hashes with hash(\'sha256\'), '
            . 'as a partner writes it; memory: memory_reset_peak_usage() and memory_get_peak_usage() around one call',
    ];
    $aHashNs = median($times['ah']);
    $scans = median($times['s']);
    if ($row['a_ns'] > $row['c_ns'] || $aHashNs > $row['c_ns']) {
        $text = sprintf(
            'json_decode (in C) keeps no number literal, keeps the last of repeated keys and hashes keys '
            . 'without a secret (one object of many chosen keys would make it quadratic): the scans of the raw '
            . 'bytes that make up for it, also in C, cost %.1f us (%.0f%% of C); A\'s calls of PHP per body, '
            . 'whatever its size, cost %.1f us more than C\'s on a two-member body (%.0f%% of C); and the checks C '
            . 'skips (keys against R1, values against R3, repeated keys counted) are made on every pair',
            $scans / 1e3,
            100 * $scans / $row['c_ns'],
            $fixedNs / 1e3,
            100 * $fixedNs / $row['c_ns'],
        );
        if ($row['a_ns'] > $row['c_ns']) {
            $row['stops'] = $text;
        }
    }
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
    $metric = [
        'lang' => 'php',
        'metric' => "A#/C, {$entry['name']}: A with hash('sha256') as its SHA-256, as C hashes",
        'value' => $aHashNs / $row['c_ns'],
        'target' => 1.0,
        'note' => sprintf(
            'A# %.1f us, A %.1f us, C %.1f us, the scans S %.1f us, in the same rounds',
            $aHashNs / 1e3,
            $row['a_ns'] / 1e3,
            $row['c_ns'] / 1e3,
            $scans / 1e3,
        ),
    ];
    if ($aHashNs > $row['c_ns']) {
        $metric['note'] .= '; what stops it: ' . $text;
    }
    echo json_encode($metric, JSON_UNESCAPED_SLASHES), "\n";
}
exit($failed);
