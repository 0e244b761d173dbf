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

foreach ($nulls as $v) {
    $name = 'received_nulls "' . $v->getString('name') . '"';
    $key = new PrivateKey($v->getString('key'));
    $body = $v->getString('body');
    $path = $v->getString('path');
    $c->run($name, function () use ($c, $v, $name, $key, $body, $path): void {
        Signer::verify($body, $key);
        $flat = Canonical::parse($body);
        $c->equal("$name: verifies, the null read as absent", $path, $flat->firstNullPath());
        $c->check(
            "$name: the null member is no pair",
            array_filter($flat->pairs(), fn ($p) => str_starts_with($p, $path . '=')) === [],
            implode('&', $flat->pairs()),
        );
        $unsigned = $v->getString('unsigned');
        foreach (['sign', 'attach'] as $how) {
            $e = $c->raises("$name: $how refuses a null", CanonicalException::class, fn () => $how === 'sign'
                ? Signer::sign($unsigned, $key)
                : Signer::attach($unsigned, $key));
            if ($e !== null) {
                $c->check("$name: $how names R2 at the path", $e->rule() === Ambiguity::NULL && $e->path() === $path, $e->getMessage());
            }
        }
        // The same body with the null in an array instead is refused on receipt (R2).
        $inArray = str_replace('null', '[1,null]', $body);
        $e = $c->raises("$name: a null array element is refused", VerifyException::class, fn () => Signer::verify($inArray, $key));
        if ($e !== null) {
            $c->check("$name: R2 at the element", $e->rule() === Ambiguity::NULL && $e->path() === $path . '[1]', $e->getMessage());
        }
    });
}

exit($c->finish());
