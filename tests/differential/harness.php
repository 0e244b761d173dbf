<?php

declare(strict_types=1);

/*
 * The PHP side of the differential test across signers (tests/differential/run.py):
 * `sign <base64>` / `verify <base64>` lines in, one `ok <hex>` | `refused R1..R4` |
 * `refused other` | `missing` | `mismatch` line out each. Argument: the key.
 */

require dirname(__DIR__, 2) . '/php/autoload.php';

use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;

function refusal(?CanonicalException $e): string
{
    $rule = $e?->rule();
    return $rule !== null ? 'refused ' . $rule->id() : 'refused other';
}

function run(string $op, string $body, PrivateKey $key): string
{
    try {
        if ($op === 'sign') {
            return 'ok ' . Signer::sign($body, $key);
        }
        Signer::verify($body, $key);
        return 'ok ' . Canonical::parse($body)->signatureHex($key);
    } catch (VerifyException $e) {
        return match ($e->kind()) {
            VerifyException::MISSING => 'missing',
            VerifyException::MISMATCH => 'mismatch',
            default => refusal($e->cause()),
        };
    } catch (CanonicalException $e) {
        return refusal($e);
    }
}

$key = new PrivateKey($argv[1] ?? 'differential-key');
$out = '';
while (($line = fgets(STDIN)) !== false) {
    $line = rtrim($line, "\n");
    $space = strpos($line, ' ');
    if ($space === false) {
        continue;
    }
    $out .= run(substr($line, 0, $space), (string) base64_decode(substr($line, $space + 1), true), $key) . "\n";
}
echo $out;
