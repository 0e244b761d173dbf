<?php

declare(strict_types=1);

/*
 * The shared signing vectors (`signing`, `refusals`, `received_nulls`), which every signer
 * and verifier of the API passes. Argument: the vectors file (default: the shared tests/data/signing-vectors.json
 * next to this file).
 */

namespace Baas\Signing\Tests;

use Baas\Signing\Ambiguity;
use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\JsonObject;
use Baas\Signing\PrivateKey;
use Baas\Signing\Sha256;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;

require_once __DIR__ . '/support/Checks.php';

$c = new Checks('SigningVectorsTest');
$vectors = Checks::vectors($argv);
$signing = Checks::section($vectors, 'signing');
$refusals = Checks::section($vectors, 'refusals');
$nulls = Checks::section($vectors, 'received_nulls');
$c->check(
    'the vectors are there',
    count($signing) >= 13 && count($refusals) >= 13 && count($nulls) >= 1,
    count($signing) . ' signing, ' . count($refusals) . ' refusals, ' . count($nulls) . ' received_nulls',
);

/** Whether verifying fails with MISMATCH. */
function mismatch(string $body, PrivateKey $key): bool
{
    try {
        Signer::verify($body, $key);
        return false;
    } catch (VerifyException $e) {
        return $e->kind() === VerifyException::MISMATCH;
    }
}

foreach ($signing as $v) {
    $name = 'signing "' . $v->getString('name') . '"';
    $key = new PrivateKey($v->getString('key'));
    $body = $v->getString('body');
    $expected = $v->getString('signature');
    $c->run($name, function () use ($c, $v, $name, $key, $body, $expected): void {
        $flat = Canonical::parse($body);
        $c->equal("$name: canonical string", $v->getString('canonical'), $flat->canonicalStringExposingKey($key));
        $c->equal("$name: signature", $expected, Signer::sign($body, $key));
        $c->equal(
            "$name: canonical() shows the key redacted",
            $key->redact($v->getString('canonical')),
            Signer::canonical($body, $key),
        );
        $signed = Signer::attach($body, $key);
        Signer::verify($signed, $key);
        $c->equal("$name: attach then verify", $expected, Canonical::parse($signed)->signature());
        $c->check("$name: check holds", Signer::check($signed, $key)->holds());
        // The attached body is the signed text plus the signature only.
        $text = rtrim($body);
        $head = substr($text, 0, -1);
        $comma = str_ends_with(rtrim($head), '{') ? '' : ',';
        $c->equal("$name: attach changes no other byte", $head . $comma . '"signature":"' . $expected . '"}', $signed);
        $c->check("$name: another key does not verify", mismatch($signed, new PrivateKey($key->expose() . 'x')));
    });
}

// OpenSSL's SHA-256 (used when the extension is loaded) and hash('sha256') sign alike.
foreach ([false, true] as $openssl) {
    $using = Sha256::useOpenssl($openssl) ? 'OpenSSL' : 'hash()';
    foreach ($signing as $v) {
        $name = 'signing "' . $v->getString('name') . '" with ' . $using;
        $key = new PrivateKey($v->getString('key'));
        $c->run($name, function () use ($c, $v, $name, $key): void {
            $c->equal("$name: signature", $v->getString('signature'), Signer::sign($v->getString('body'), $key));
            Signer::verify(Signer::attach($v->getString('body'), $key), $key);
        });
    }
}
$c->check('OpenSSL\'s SHA-256 is used where the extension is loaded', Sha256::openssl() === function_exists('openssl_digest'));
foreach ($signing as $v) {
    // Long texts (OpenSSL's from 256 bytes): the canonical strings repeated.
    foreach ([255, 256, 4096, 100000] as $length) {
        $text = substr(str_repeat($v->getString('canonical'), intdiv($length, strlen($v->getString('canonical'))) + 1), 0, $length);
        $c->equal("SHA-256 of $length bytes from \"{$v->getString('name')}\"", hash('sha256', $text), Sha256::of($text));
        $c->equal('... raw', hash('sha256', $text, true), Sha256::of($text, true));
    }
}

foreach ($refusals as $v) {
    $name = 'refusal "' . $v->getString('name') . '"';
    $key = new PrivateKey($v->getString('key'));
    $body = $v->getString('body');
    $rule = $v->getString('rule');
    $path = $v->getString('path');
    $c->run($name, function () use ($c, $v, $name, $key, $body, $rule, $path): void {
        // Signed with the vector's key: only the rule refuses it.
        $loose = Canonical::parseLoose($body);
        $c->equal("$name: carries the signature the algorithm gives it", $loose->signatureHex($key), $loose->signature());
        $refused = $c->raises("$name: verify refuses", VerifyException::class, fn () => Signer::verify($body, $key));
        if ($refused !== null) {
            $cause = $refused->cause();
            $c->check(
                "$name: verify names the rule and path",
                $refused->kind() === VerifyException::MALFORMED && $cause !== null
                    && $cause->kind() === CanonicalException::AMBIGUOUS && $cause->rule()?->id() === $rule
                    && $cause->path() === $path && $refused->rule()?->id() === $rule && $refused->path() === $path
                    && $refused->getPrevious() === $cause,
                "expected $rule at $path, got " . $refused->getMessage(),
            );
            $c->check(
                "$name: the message names the rule and path",
                str_contains($refused->getMessage(), "rule $rule at `$path`"),
                $refused->getMessage(),
            );
        }
        $c->raises("$name: check refuses", CanonicalException::class, fn () => Signer::check($body, $key));
        $unsigned = $v->getString('unsigned');
        foreach (['sign', 'attach'] as $how) {
            $e = $c->raises("$name: $how refuses the unsigned body", CanonicalException::class, fn () => $how === 'sign'
                ? Signer::sign($unsigned, $key)
                : Signer::attach($unsigned, $key));
            if ($e !== null) {
                $c->check(
                    "$name: $how names the rule",
                    $e->kind() === CanonicalException::AMBIGUOUS && $e->rule()?->id() === $rule,
                    $e->getMessage(),
                );
            }
        }
        if ($v->get('recut') !== null) {
            $recut = Canonical::parseLoose($v->getString('recut'));
            $c->equal(
                "$name: the re-cut has the same canonical string",
                $loose->canonicalStringExposingKey($key),
                $recut->canonicalStringExposingKey($key),
            );
            if ($v->get('recut_is_clean') === true) {
                $c->run("$name: the re-cut is clean", fn () => Canonical::parse($v->getString('recut')));
            }
        }
    });
}

/** A PSR-3-style logger that keeps its warnings. */
final class Warnings
{
    /** @var list<array{string, array<string, mixed>}> */
    public array $seen = [];

    /** @param array<string, mixed> $context */
    public function warning(string $message, array $context = []): void
    {
        $this->seen[] = [$message, $context];
    }
}

foreach ($nulls as $v) {
    $name = 'received_nulls "' . $v->getString('name') . '"';
    $key = new PrivateKey($v->getString('key'));
    $body = $v->getString('body');
    $path = $v->getString('path');
    $skipped = array_map('strval', (array) $v->get('skipped'));
    $c->run($name, function () use ($c, $v, $name, $key, $body, $path, $skipped): void {
        Signer::verify($body, $key);
        $flat = Canonical::parse($body);
        $c->equal("$name: verifies, the null read as absent", $path, $flat->firstNullPath());
        $c->equal("$name: every null member listed, in document order", $skipped, $flat->skippedNulls());
        foreach ($skipped as $at) {
            $c->check(
                "$name: the null member $at is no pair",
                array_filter($flat->pairs(), fn ($p) => str_starts_with($p, $at . '=')) === [],
                implode('&', $flat->pairs()),
            );
        }
        // The document skips nulls when signing: a signer signs the body to the signature the
        // service computes, and warns about each null member.
        $unsigned = $v->getString('unsigned');
        $signature = Canonical::parse($body)->signature();
        $c->equal("$name: parseForSigning lists the skipped members", $skipped, Canonical::parseForSigning($unsigned)->skippedNulls());
        $warnings = new Warnings();
        $c->equal("$name: sign gives the body's signature", $signature, Signer::sign($unsigned, $key, $warnings));
        $c->equal("$name: one warning per skipped member", $skipped, array_map(fn ($w) => $w[1]['path'], $warnings->seen));
        $c->check(
            "$name: each warning names its path",
            $warnings->seen !== [] && array_filter($warnings->seen, fn ($w) => !str_contains($w[0], '`' . $w[1]['path'] . '` is null')) === [],
            Checks::show($warnings->seen),
        );
        $c->equal("$name: sign without a logger", $signature, Signer::sign($unsigned, $key));
        $warnings = new Warnings();
        $attached = Signer::attach($unsigned, $key, $warnings);
        $c->equal("$name: attach adds the body's signature", $body, $attached);
        $c->equal("$name: attach warns too", count($skipped), count($warnings->seen));
        // The same body with the null in an array instead is refused on receipt and on signing (R2).
        $inArray = str_replace(':null', ':[1,null]', $body);
        $e = $c->raises("$name: a null array element is refused", VerifyException::class, fn () => Signer::verify($inArray, $key));
        if ($e !== null) {
            $c->check("$name: R2 at the element", $e->rule() === Ambiguity::NULL && $e->path() === $path . '[1]', $e->getMessage());
        }
        foreach (['sign', 'attach'] as $how) {
            $unsignedInArray = str_replace(':null', ':[1,null]', $unsigned);
            $e = $c->raises("$name: $how refuses a null array element", CanonicalException::class, fn () => $how === 'sign'
                ? Signer::sign($unsignedInArray, $key)
                : Signer::attach($unsignedInArray, $key));
            if ($e !== null) {
                $c->check("$name: $how names R2 at the element", $e->rule() === Ambiguity::NULL && $e->path() === $path . '[1]', $e->getMessage());
            }
        }
    });
}

exit($c->finish());
