<?php

declare(strict_types=1);

/*
 * The notification verifier: the signature, the sender, the members of a notification and
 * not of an answer, and the time window.
 */

namespace Baas\Signing\Tests;

use Baas\Signing\Canonical;
use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;
use Baas\Signing\NotificationException;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;

require_once __DIR__ . '/support/Checks.php';

const SERVICE = 'baas-service';
const NOW = 1650533105687;
const HOUR = 3600000;

$c = new Checks('NotificationVerifierTest');
$key = new PrivateKey('partner-secret-key');

/** A notification body (members as JSON text) signed with a key. */
function signed(string $members, PrivateKey $key): string
{
    return Signer::attach('{' . $members . '}', $key);
}

/** The members of a notification. */
function members(string $sender, int|string $timestamp): string
{
    return '"requestId":"N1","sender":"' . $sender . '","notificationType":"0028","locale":"en_KE",'
        . '"timestamp":' . $timestamp . ',"salt":"s1","params":{"amount":100.50,"txId":"TX1"}';
}

/** The body signed as it is, without the rules (as a careless or hostile signer would). */
function withSignature(string $members, PrivateKey $key): string
{
    $body = '{' . $members . '}';
    return Signer::attachSignature($body, Canonical::parseLoose($body)->signatureHex($key));
}

/** Checks that a body is refused with a kind and a message holding a text. */
function refused(Checks $c, NotificationVerifier $verifier, string $name, string $body, string $kind, string $says): void
{
    $e = $c->raises("$name is refused", NotificationException::class, fn () => $verifier->verify($body, NOW));
    if ($e !== null) {
        $c->check("$name: $kind", $e->kind() === $kind && str_contains($e->getMessage(), $says), $e->kind() . ': ' . $e->getMessage());
        $c->check("$name: the key is not shown", !Checks::shows($e, 'partner-secret-key'), $e->getMessage());
    }
}

$verifier = new NotificationVerifier($key, SERVICE);
$c->run('a fresh notification from the service', function () use ($c, $verifier, $key): void {
    $n = $verifier->verify(signed(members(SERVICE, NOW - 1000), $key), NOW);
    $c->equal('notificationType', '0028', $n->notificationType);
    $c->equal('requestId', 'N1', $n->requestId);
    $c->equal('sender', SERVICE, $n->sender);
    $c->equal('locale', 'en_KE', $n->locale);
    $c->equal('timestamp', NOW - 1000, $n->timestamp);
    $amount = $n->params instanceof JsonObject ? $n->params->get('amount') : null;
    $c->check("params keep the amount's text", $amount instanceof JsonNumber && $amount->literal === '100.50');
});
$c->run('the current clock', fn () => $verifier->verify(signed(members(SERVICE, (int) floor(microtime(true) * 1000)), $key)));
$c->run('no params: an empty object', function () use ($c, $verifier, $key): void {
    $n = $verifier->verify(signed(str_replace(',"params":{"amount":100.50,"txId":"TX1"}', '', members(SERVICE, NOW)), $key), NOW);
    $c->check('empty', $n->params instanceof JsonObject && count($n->params) === 0);
});
refused($c, $verifier, 'another sender', signed(members('someone-else', NOW), $key), NotificationException::UNTRUSTED, "sender is 'someone-else'");
refused($c, $verifier, 'no sender', signed(str_replace('"sender":"' . SERVICE . '",', '', members(SERVICE, NOW)), $key),
    NotificationException::UNTRUSTED, "sender is ''");
refused($c, $verifier, 'a sender as a number', signed(str_replace('"' . SERVICE . '"', '7', members(SERVICE, NOW)), $key),
    NotificationException::MALFORMED, '`sender` is not a string');
refused($c, $verifier, '25 hours old', signed(members(SERVICE, NOW - 25 * HOUR), $key), NotificationException::UNTRUSTED, 'refused as stale');
$c->run('exactly 24 hours old', fn () => $verifier->verify(signed(members(SERVICE, NOW - 24 * HOUR), $key), NOW));
refused($c, $verifier, '24 hours and 1 ms old', signed(members(SERVICE, NOW - 24 * HOUR - 1), $key),
    NotificationException::UNTRUSTED, '86400 s before now');
$c->run('4 minutes ahead', fn () => $verifier->verify(signed(members(SERVICE, NOW + 4 * 60000), $key), NOW));
$c->run('exactly 5 minutes ahead', fn () => $verifier->verify(signed(members(SERVICE, NOW + 5 * 60000), $key), NOW));
refused($c, $verifier, '6 minutes ahead', signed(members(SERVICE, NOW + 6 * 60000), $key),
    NotificationException::UNTRUSTED, "check this machine's clock");
refused($c, $verifier, 'a timestamp beyond any clock', signed(members(SERVICE, '99999999999999999999999'), $key),
    NotificationException::UNTRUSTED, 'dated 99999999999999999999999, more than 300 s after now');
refused($c, $verifier, 'a timestamp before any clock', signed(members(SERVICE, '-99999999999999999999999'), $key),
    NotificationException::UNTRUSTED, 'refused as stale');
refused($c, $verifier, 'the largest int', signed(members(SERVICE, (string) PHP_INT_MAX), $key),
    NotificationException::UNTRUSTED, 'after now');
$strict = new NotificationVerifier($key, SERVICE, 3600, 0);
refused($c, $strict, '2 hours old, with a window of 1 hour', signed(members(SERVICE, NOW - 2 * HOUR), $key),
    NotificationException::UNTRUSTED, '3600 s before now');
refused($c, $strict, '1 ms ahead, with no skew allowed', signed(members(SERVICE, NOW + 1), $key),
    NotificationException::UNTRUSTED, '0 s after now');
$c->run('30 minutes old, with a window of 1 hour', fn () => $strict->verify(signed(members(SERVICE, NOW - HOUR / 2), $key), NOW));
$lenient = new NotificationVerifier($key, SERVICE, 3 * 86400, 300);
$c->run('2 days old, with a window of 3 days', fn () => $lenient->verify(signed(members(SERVICE, NOW - 48 * HOUR), $key), NOW));
$c->equal('the window', [86400, 300, 3600, 0, SERVICE], [$verifier->maxAge(), $verifier->maxSkew(), $strict->maxAge(),
    $strict->maxSkew(), $verifier->serviceSender()]);

foreach (['requestId', 'notificationType', 'salt', 'timestamp'] as $required) {
    $without = preg_replace('/"' . $required . '":("[^"]*"|[0-9]+),/', '', members(SERVICE, NOW), 1);
    refused($c, $verifier, "without $required", signed($without, $key), NotificationException::MALFORMED,
        'requestId, notificationType, timestamp and salt are required');
}
refused($c, $verifier, 'a timestamp as text', signed(members(SERVICE, '"' . NOW . '"'), $key), NotificationException::MALFORMED, 'are required');
refused($c, $verifier, 'a fractional timestamp', signed(members(SERVICE, NOW . '.5'), $key), NotificationException::MALFORMED, 'are required');
refused($c, $verifier, 'a requestId as a number', signed(str_replace('"N1"', '1', members(SERVICE, NOW)), $key),
    NotificationException::MALFORMED, '`requestId` is not a string');
// One rule in every language: a string as the service sends it, any number refused.
foreach (['28', '28.0', '2.8e1', '-28'] as $number) {
    refused($c, $verifier, "a notificationType as the number $number",
        signed(str_replace('"0028"', $number, members(SERVICE, NOW)), $key),
        NotificationException::MALFORMED, '`notificationType` is not a string');
}
foreach (['"code":"00000"', '"msg":"ok"', '"data":{}'] as $answer) {
    refused($c, $verifier, "carrying $answer", signed(members(SERVICE, NOW) . ',' . $answer, $key),
        NotificationException::UNTRUSTED, 'a member of an answer');
}
$c->run('a null code is absent', fn () => $verifier->verify(withSignature(members(SERVICE, NOW) . ',"code":null', $key), NOW));
refused($c, $verifier, 'unsigned', '{' . members(SERVICE, NOW) . '}', NotificationException::SIGNATURE_MISSING, 'carries no signature');
refused($c, $verifier, 'signed with another key', signed(members(SERVICE, NOW), new PrivateKey('other')),
    NotificationException::SIGNATURE_INVALID, 'does not verify');
$good = signed(members(SERVICE, NOW), $key);
refused($c, $verifier, 'a changed amount', str_replace('100.50', '900.50', $good), NotificationException::SIGNATURE_INVALID, 'does not verify');
refused($c, $verifier, '100.50 re-rendered as 100.5', str_replace('100.50', '100.5', $good), NotificationException::SIGNATURE_INVALID,
    'does not verify');
// Signed as is (the rules would refuse to sign it): the verifier refuses it anyway.
$recut = str_replace('"TX1"', '"TX1&params.amount=50000.00"', members(SERVICE, NOW));
refused($c, $verifier, 'a value that reads as pairs (R3)', withSignature($recut, $key), NotificationException::UNTRUSTED,
    'rule R3 at `params.txId`');
$e = $c->raises('R3: the reader\'s refusal is the previous exception', NotificationException::class,
    fn () => $verifier->verify(withSignature($recut, $key), NOW));
$c->equal('its path', 'params.txId', $e?->getPrevious() instanceof \Baas\Signing\CanonicalException ? $e->getPrevious()->path() : null);
refused($c, $verifier, 'not JSON', '{"requestId":', NotificationException::MALFORMED, 'not a usable JSON object');
refused($c, $verifier, 'an answer', signed('"requestId":"R1","code":"00000","msg":"ok","data":{}', $key),
    NotificationException::MALFORMED, 'are required');

// The key never shows: not in the verifier, not in a refusal that quotes the body.
$secret = $key->expose();
$c->check("the verifier's string", !str_contains((string) $verifier, $secret) && str_contains((string) $verifier, '[redacted]'),
    (string) $verifier);
$c->check("the verifier's dump", !str_contains(print_r($verifier, true), $secret) && !str_contains(var_export($verifier, true), $secret));
refused($c, $verifier, 'a sender that is the key', signed(members($secret, NOW), $key), NotificationException::UNTRUSTED,
    "sender is '[redacted]'");
refused($c, $verifier, 'a key that is the key', '{"' . $secret . '":1,"' . $secret . '":2}', NotificationException::MALFORMED,
    'duplicate key `[redacted]`');
$c->raises('a negative window', \InvalidArgumentException::class, fn () => new NotificationVerifier($key, SERVICE, -3600, 0));
$c->raises('a negative skew', \InvalidArgumentException::class, fn () => new NotificationVerifier($key, SERVICE, 3600, -1));
$c->equal('ACK', 'ok', NotificationVerifier::ACK);

exit($c->finish());
