<?php

declare(strict_types=1);

/*
 * The key is never shown: not by the key itself (string, var_dump, print_r, var_export,
 * debug_zval_dump, json_encode, casts, serialize, clone), not in the redacted canonical
 * string, not in any exception (message, path, string form with the stack trace and its
 * arguments, previous exceptions) nor in any dump of the library's objects.
 */

namespace Baas\Signing\Tests;

use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\SigningException;

require_once __DIR__ . '/support/Checks.php';

// Traces with their arguments, at full length: what a development php.ini shows. PHP 8.1
// knows no #[SensitiveParameter], so there the production default (no arguments) is kept.
if (PHP_VERSION_ID >= 80200) {
    ini_set('zend.exception_ignore_args', '0');
    ini_set('zend.exception_string_param_max_len', '1000000');
}

$c = new Checks('SecretTest');
$secret = 's3cret';
$key = new PrivateKey($secret);

/** Everything PHP can print of a value. */
function dumps(mixed $value): string
{
    ob_start();
    var_dump($value);
    debug_zval_dump($value);
    $out = ob_get_clean();
    return $out . print_r($value, true) . var_export($value, true) . json_encode($value)
        . (is_object($value) ? print_r((array) $value, true) . print_r(get_object_vars($value), true) : '');
}

$c->equal('string conversion', '[redacted]', (string) $key);
$c->equal('in text', 'key [redacted]', "key $key");
$c->check('no dump shows it', !str_contains(dumps($key), $secret) && str_contains(dumps($key), '[redacted]'), dumps($key));
$c->check('nor a dump of a structure holding it', !str_contains(dumps(['k' => $key, 'o' => (object) ['key' => $key]]), $secret));
$c->raises('serialize refuses', \LogicException::class, fn () => serialize($key));
$c->raises('serialize refuses inside an array', \LogicException::class, fn () => serialize([$key]));
$c->raises('unserialize refuses', \LogicException::class,
    fn () => unserialize('O:23:"Baas\Signing\PrivateKey":1:{s:6:"secret";s:6:"s3cret";}'));
$c->raises('clone refuses', \LogicException::class, fn () => clone $key);
$c->check('equal keys', $key->equals(new PrivateKey($secret)) && !$key->equals(new PrivateKey('other')));
$c->equal('expose', $secret, $key->expose());
$c->check('redact', $key->redact("a $secret b $secret") === 'a [redacted] b [redacted]' && (new PrivateKey(''))->redact('x') === 'x');

// fromEnv: null when unset or empty.
putenv('BAAS_TEST_KEY');
$c->equal('fromEnv: unset', null, PrivateKey::fromEnv('BAAS_TEST_KEY'));
putenv('BAAS_TEST_KEY=');
$c->equal('fromEnv: empty', null, PrivateKey::fromEnv('BAAS_TEST_KEY'));
putenv('BAAS_TEST_KEY=from-env');
$c->equal('fromEnv: set', 'from-env', PrivateKey::fromEnv('BAAS_TEST_KEY')?->expose());
putenv('BAAS_TEST_KEY');
$file = tempnam(sys_get_temp_dir(), 'baas-key');
file_put_contents($file, "from-file\r\n");
$c->equal('fromFile drops one line break', 'from-file', PrivateKey::fromFile($file)->expose());
unlink($file);
$e = $c->raises('fromFile of a missing file', \RuntimeException::class, fn () => PrivateKey::fromFile($file));
$c->check('names the file', str_contains((string) $e?->getMessage(), $file));

$c->run('the redacted canonical string', function () use ($c, $key, $secret): void {
    $text = Signer::canonical('{"note":"my key is s3cret","x":1}', $key);
    $c->check('hides the key everywhere', !str_contains($text, $secret) && str_contains($text, 'senderKey=[redacted]')
        && str_contains($text, 'note=my key is [redacted]'), $text);
});

// Bodies that put the key where a refusal quotes them: keys, paths, signatures, values.
$bodies = [
    '{"s3cret":1,"s3cret":2}', '{"a.s3cret":1}', '{"s3cret":[1,null]}', '{"x":"v&s3cret=1"}',
    '{"a":{"s3cret":1,"s3cret":2}}', '{"s3cret":1,"signature":"0"}', '{"s3cret":1}',
    '{"senderKey":"s3cret"}', '{"s3cret":nul}', '{"s3cret":null}', '{"signature":"s3cret"}',
    '{"s3cret":{"x":[1,}}', '{"s3cret":{"a":' . str_repeat('[', 70) . '}}', '{"s3cret":"' . "\x01" . '"}',
    '{"s3cret":"\ud800"}', "{\"s3cret\":\"\xff\"}", '{"s3cret":1} s3cret',
];
$modes = [
    'sign' => fn (#[\SensitiveParameter] string $b) => Signer::sign($b, $key),
    'attach' => fn (#[\SensitiveParameter] string $b) => Signer::attach($b, $key),
    'verify' => fn (#[\SensitiveParameter] string $b) => Signer::verify($b, $key),
    'check' => fn (#[\SensitiveParameter] string $b) => Signer::check($b, $key),
    'canonical' => fn (#[\SensitiveParameter] string $b) => Signer::canonical($b, $key),
    'notification' => fn (#[\SensitiveParameter] string $b) => (new NotificationVerifier($key, 'svc'))->verify($b, 0),
];
foreach ($bodies as $i => $body) {
    foreach ($modes as $mode => $run) {
        // The check's name numbers the body: a name holding the key would be in the trace.
        $name = "body $i, $mode";
        try {
            $out = $run($body);
            if ($mode === 'canonical') {
                $c->check("$name: the canonical string", !str_contains($out, $secret), $out);
            }
        } catch (SigningException $e) {
            $c->check("$name: the key is not in the exception", !Checks::shows($e, $secret), (string) $e);
            $c->check("$name: nor in a dump of it", !str_contains(dumps($e), $secret));
            if ($e instanceof CanonicalException) {
                $c->check("$name: nor in the path", $e->path() === null || !str_contains($e->path(), $secret));
            }
        } catch (\Throwable $e) {
            $c->check("$name: only the library's exceptions", false, get_class($e) . ': ' . $e->getMessage());
        }
    }
}
$c->check('some refusals did quote the key, redacted', (function () use ($key): bool {
    try {
        Signer::sign('{"a.s3cret":1}', $key);
    } catch (CanonicalException $e) {
        return $e->getMessage() === 'refused by rule R1 at `a.[redacted]`: ' . $e->rule()?->describe()
            && $e->path() === 'a.[redacted]';
    }
    return false;
})());
$c->check(
    'the body is no argument in a trace (PHP 8.2: #[SensitiveParameter])',
    PHP_VERSION_ID < 80200 || (function (): bool {
        try {
            Canonical::parse('{"hidden-body":1,}');
        } catch (CanonicalException $e) {
            return !str_contains((string) $e, 'hidden-body') && str_contains((string) $e, 'SensitiveParameterValue');
        }
        return false;
    })(),
);

$verifier = new NotificationVerifier($key, 'svc');
$c->check('a verifier shows no key', !str_contains((string) $verifier, $secret) && str_contains((string) $verifier, '[redacted]')
    && !str_contains(dumps($verifier), $secret), dumps($verifier));
$signed = Signer::attach('{"a":1}', $key);
$c->check('a flattened body shows no key', !str_contains(dumps(Canonical::parse($signed)), $secret));
$c->check('a check shows no key', !str_contains(dumps(Signer::check($signed, $key)), $secret));
$c->check('a flattened body dumps counts, not pairs', !str_contains(print_r(Canonical::parse('{"note":"private"}'), true), 'private'));

exit($c->finish());
