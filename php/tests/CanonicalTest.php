<?php

declare(strict_types=1);

/*
 * The reader and the signer beyond the shared vectors: numbers keep their text, the byte
 * order of the sort, the refusals (malformed JSON, invalid UTF-8, duplicate keys, depth and
 * size limits, R1 to R4), keys PHP would turn into integers, chosen colliding keys, attach,
 * tampering. Expected signatures and offsets are those of the Python reference for the same
 * bodies. The key never shown: tests/SecretTest.php.
 */

namespace Baas\Signing\Tests;

use Baas\Signing\Ambiguity;
use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;

require_once __DIR__ . '/support/Checks.php';

$c = new Checks('CanonicalTest');
$key = new PrivateKey('yourkey');

// The limits are the Rust runtime's, the Python reference's and the Java library's.
$c->equal('MAX_DEPTH', 64, Canonical::MAX_DEPTH);
$c->equal('MAX_EXPANSION', 32, Canonical::MAX_EXPANSION);
$c->equal('EXPANSION_ALLOWANCE', 64 * 1024, Canonical::EXPANSION_ALLOWANCE);
$c->equal('MAX_BODY', (1 << 29) - 1, Canonical::MAX_BODY);

// ---- numbers keep their text ----
$c->run('numbers keep their text', function () use ($c, $key): void {
    $a = Signer::sign('{"amount":100.50}', $key);
    $b = Signer::sign('{"amount":100.5}', $key);
    $c->equal('100.50 signs as 100.50', 'ac15a259e922e30897e2449c53aa891b86680eb077b94499c375f92c62bf35d9', $a);
    $c->equal('100.5 signs as 100.5', '543efacf3b076db8373ef593b5398cf7af4ebcd52124db45d0d593274de549a4', $b);
    $flat = Canonical::parse('{"a":100.50,"b":"caf\u00e9","c":[1.0e3,-0],"d":12345678901234567890.10}');
    $c->equal(
        'the pairs hold the literal text',
        ['a=100.50', "b=caf\u{e9}", 'c[0]=1.0e3', 'c[1]=-0', 'd=12345678901234567890.10'],
        $flat->pairs(),
    );
    $amount = $flat->value()->get('a');
    $c->check('the value is a JsonNumber with the literal text', $amount instanceof JsonNumber && $amount->literal === '100.50'
        && (string) $amount === '100.50');
    $c->equal('a big number too', '12345678901234567890.10', (string) $flat->value()->get('d'));
    $c->equal(
        'exponents as written',
        '65022bb2c424db92c70e067384c0b2d8c8f0a9fa2d73d50ef8d6c6a07baf7bd9',
        Signer::sign('{"a":1e5,"b":-0.5E-3,"c":1E+2}', $key),
    );
    $c->check('plain integers', (new JsonNumber('-12'))->isPlainInteger() && !(new JsonNumber('1.0'))->isPlainInteger()
        && !(new JsonNumber('1e3'))->isPlainInteger() && !(new JsonNumber('-'))->isPlainInteger());
});

// ---- pairs sort by bytes ----
$c->run('pairs sort by UTF-8 bytes', function () use ($c, $key): void {
    $body = "{\"\u{ff61}\":1,\"\u{1F600}\":2,\"\u{e000}\":3}";
    $c->equal(
        'the order of code points',
        "senderKey=yourkey&\u{e000}=3&\u{ff61}=1&\u{1F600}=2",
        Canonical::parse($body)->canonicalStringExposingKey($key),
    );
    $c->equal('the reference signature', '3b726440845bbcda1b8ee34a43e7adb83fbeed981f09f1ee93513ca4436094b5', Signer::sign($body, $key));
    $c->equal(
        'complete pair strings: upper case first, a[10] before a[1], amount2 before amount',
        'B=1&a[0]=0&a[10]=10&a[1]=1&a[2]=2&a[3]=3&a[4]=4&a[5]=5&a[6]=6&a[7]=7&a[8]=8&a[9]=9'
            . '&amount2=1&amount=5&senderKey=yourkey',
        Canonical::parse('{"amount":5,"amount2":1,"B":1,"a":[0,1,2,3,4,5,6,7,8,9,10]}')->canonicalStringExposingKey($key),
    );
});

// ---- malformed bodies: kind, offset (-1: none) and path, alike in every mode ----
$table = [
    ["{\"a\":\"\xff\"}", CanonicalException::INVALID_UTF8, 6, null],
    ["{\"a\":\"\xc0\xaf\"}", CanonicalException::INVALID_UTF8, 6, null], // overlong
    ["{\"a\":\"\xed\xa0\x80\"}", CanonicalException::INVALID_UTF8, 6, null], // a surrogate
    ["{\"a\":\"\xe2\x82\"}", CanonicalException::INVALID_UTF8, 6, null], // truncated
    ["{\"ab\":\"\xf4\x90\x80\x80\"}", CanonicalException::INVALID_UTF8, 7, null], // above U+10FFFF
    ["{\"a\":\"\xe2(\xa1\"}", CanonicalException::INVALID_UTF8, 6, null],
    ["{\"a\":\"ok\"}\xe2\x82", CanonicalException::INVALID_UTF8, 10, null], // at the very end
    ["\xef\xbb\xbf{}", CanonicalException::NOT_AN_OBJECT, -1, null], // a byte order mark
    ['[1]', CanonicalException::NOT_AN_OBJECT, -1, null],
    ['', CanonicalException::NOT_AN_OBJECT, -1, null],
    ['  ', CanonicalException::NOT_AN_OBJECT, -1, null],
    ['{"a":1}x', CanonicalException::SYNTAX, 7, null],
    ['{"a":01}', CanonicalException::SYNTAX, 6, null],
    ['{"a":NaN}', CanonicalException::SYNTAX, 5, null],
    ['{"a":1,}', CanonicalException::SYNTAX, 7, null],
    ["{\"a\":\"\x01\"}", CanonicalException::SYNTAX, 5, null],
    ['{"a":"\ud800"}', CanonicalException::SYNTAX, 5, null],
    ['{"a":"\udc00x"}', CanonicalException::SYNTAX, 5, null],
    ['{"a":"\ud83d\u0041"}', CanonicalException::SYNTAX, 5, null],
    ['{"signature":[1,}', CanonicalException::SYNTAX, 16, null],
    ['{"a":-}', CanonicalException::SYNTAX, 5, null],
    ['{"a":1.}', CanonicalException::SYNTAX, 6, null],
    ['{"a":1e}', CanonicalException::SYNTAX, 6, null],
    ['{"a":tru}', CanonicalException::SYNTAX, 5, null],
    ['{"a" 1}', CanonicalException::SYNTAX, 5, null],
    ['{a:1}', CanonicalException::SYNTAX, 1, null],
    ['{"a":"x\q"}', CanonicalException::SYNTAX, 5, null],
    ['{"a":"\u12g4"}', CanonicalException::SYNTAX, 5, null],
    ['{"a":"\u12"}', CanonicalException::SYNTAX, 5, null],
    ['{"a":"abc', CanonicalException::SYNTAX, 5, null],
    ['{"a":"abc\\', CanonicalException::SYNTAX, 5, null],
    ['{"a":[1,2]  ', CanonicalException::SYNTAX, 12, null],
    ['{"a":1,"a":2}', CanonicalException::DUPLICATE_KEY, -1, 'a'],
    ['{"a":{"b":1,"b":{}}}', CanonicalException::DUPLICATE_KEY, -1, 'a.b'],
    ['{"1":1,"01":2,"1":3}', CanonicalException::DUPLICATE_KEY, -1, '1'],
    ['{"signature":1}', CanonicalException::SIGNATURE_NOT_STRING, -1, null],
];
foreach ($table as [$body, $kind, $offset, $path]) {
    $name = 'refuses ' . $body;
    foreach (['parseLoose', 'parse', 'sign'] as $mode) {
        $e = $c->raises($name, CanonicalException::class, fn () => match ($mode) {
            'parseLoose' => Canonical::parseLoose($body),
            'parse' => Canonical::parse($body),
            default => Signer::sign($body, $key),
        });
        if ($e !== null) {
            $c->check(
                "$name ($mode)",
                $e->kind() === $kind && ($e->offset() ?? -1) === $offset && $e->path() === $path,
                "expected $kind at $offset $path, got " . $e->kind() . ' at ' . ($e->offset() ?? -1) . ' '
                    . $e->path() . ': ' . $e->getMessage(),
            );
        }
    }
}
$e = $c->raises('a lone surrogate', CanonicalException::class, fn () => Canonical::parse('{"a":"\ud800"}'));
$c->equal("the lone surrogate's message", 'invalid JSON at byte 5: expected no lone surrogate `\uD800`-`\uDFFF`', $e?->getMessage());
$e = $c->raises('a lone surrogate before a bad escape', CanonicalException::class, fn () => Canonical::parse('{"a":"\ud800\q"}'));
$c->equal('is a bad string first (as the reference)', 'invalid JSON at byte 5: expected a valid JSON string', $e?->getMessage());
$c->equal('invalid UTF-8 names the byte', 'body is not valid UTF-8 (byte 6)', $c->raises('', CanonicalException::class,
    fn () => Canonical::parse("{\"a\":\"\xff\"}"))?->getMessage());
$v = $c->raises('verify refuses invalid UTF-8', VerifyException::class, fn () => Signer::verify("{\"a\":\"\xff\",\"signature\":\"00\"}", $key));
$c->check('as MALFORMED, invalid_utf8', $v?->kind() === VerifyException::MALFORMED
    && $v->cause()?->kind() === CanonicalException::INVALID_UTF8, (string) $v?->getMessage());
$r = $c->raises('R1 before the duplicate', CanonicalException::class, fn () => Canonical::parse('{"a":1,"a":{"b.c":1}}'));
$c->check('R1 at a.b.c', $r?->rule() === Ambiguity::KEY && $r->path() === 'a.b.c', (string) $r?->getMessage());
$d = $c->raises('a duplicate, read loosely', CanonicalException::class, fn () => Canonical::parseLoose('{"a":1,"a":{"b.c":1}}'));
$c->check('duplicate at a', $d?->kind() === CanonicalException::DUPLICATE_KEY && $d->path() === 'a');
$c->run('escapes are unescaped', function () use ($c): void {
    $flat = Canonical::parse('{"q":"a\"b\\\\c\/d\b\f\n\r\t","u":"\u00e9\ud83d\ude00\u0000","k\u0061":1}');
    $c->equal('every escape', ["q=a\"b\\c/d\x08\x0C\n\r\t", "u=\u{e9}\u{1F600}\x00", 'ka=1'], $flat->pairs());
});

// ---- keys PHP would turn into integers, and members ----
$c->run('keys stay strings', function () use ($c): void {
    $top = Canonical::parse('{"1":"one","01":"zero-one","-0":"minus","x":null,"o":{"9":[true,false]}}')->value();
    $c->equal('keys in order, as strings', ['1', '01', '-0', 'x', 'o'], $top->keys());
    $c->check('the keys iterate as strings', (function () use ($top): bool {
        foreach ($top as $k => $unused) {
            if (!is_string($k)) {
                return false;
            }
        }
        return true;
    })());
    $c->equal('get("1")', 'one', $top->getString('1'));
    $c->equal('get("01")', 'zero-one', $top->getString('01'));
    $c->check('a null member is present and reads as absent', $top->has('x') && $top->get('x') === null && !$top->has('y'));
    $c->equal('count', 5, count($top));
    $o = $top->get('o');
    $c->check('nested values', $o instanceof JsonObject && $o->get('9') === [true, false]);
});
$c->run('many keys in one object', function () use ($c): void {
    $members = [];
    for ($i = 0; $i < 1000; $i++) {
        $members[] = '"' . $i . '":' . $i;
    }
    $top = Canonical::parse('{' . implode(',', $members) . '}')->value();
    $c->check('every key found past the plain limit', $top->getString('999') === null && (string) $top->get('999') === '999'
        && (string) $top->get('0') === '0' && $top->get('1000') === null && count($top->keys()) === 1000);
    $e = $c->raises('a duplicate past the plain limit', CanonicalException::class,
        fn () => Canonical::parse('{' . implode(',', $members) . ',"500":1}'));
    $c->equal('at 500', '500', $e?->path());
});
// Keys chosen to collide in PHP's own (unkeyed) array hash: a plain array takes seconds.
$keys = [''];
for ($i = 0; $i < 15; $i++) {
    $next = [];
    foreach ($keys as $k) {
        $next[] = $k . 'Ez';
        $next[] = $k . 'FY';
    }
    $keys = $next;
}
$colliding = '{' . implode(',', array_map(fn ($k) => '"' . $k . '":1', $keys)) . '}';
$start = microtime(true);
$c->run('32768 keys colliding in PHP arrays', fn () => Canonical::parse($colliding));
$c->check('are read in linear time (under 1.5 s)', microtime(true) - $start < 1.5, sprintf('%.2f s', microtime(true) - $start));
$integers = '{' . implode(',', array_map(fn ($k) => '"' . ($k << 32) . '":1', range(1, 32768))) . '}';
$start = microtime(true);
$c->run('32768 integer keys colliding in PHP arrays', fn () => Canonical::parse($integers));
$c->check('are read in linear time (under 1.5 s)', microtime(true) - $start < 1.5, sprintf('%.2f s', microtime(true) - $start));

// ---- the re-cut rules ----
$rules = [
    ['{"a":[1,null]}', Ambiguity::NULL, 'a[1]'],
    ['{"list":[[null]]}', Ambiguity::NULL, 'list[0][0]'],
    ['{"x":"a&b=c"}', Ambiguity::VALUE_READS_AS_PAIR, 'x'],
    ['{"senderKey":"k"}', Ambiguity::SENDER_KEY, 'senderKey'],
    ['{"":1}', Ambiguity::KEY, ''],
    ['{"a":{"":1}}', Ambiguity::KEY, 'a.'],
    ['{"a":null,"b.c":1}', Ambiguity::KEY, 'b.c'],
    ['{"a":{"x[0]":1}}', Ambiguity::KEY, 'a.x[0]'],
    ['{"signature":"abc","a":"x&y=1"}', Ambiguity::VALUE_READS_AS_PAIR, 'a'],
];
foreach ($rules as [$body, $rule, $path]) {
    $e = $c->raises("verify refuses $body", CanonicalException::class, fn () => Canonical::parse($body));
    $c->check("verify names {$rule->id()} at $path", $e?->rule() === $rule && $e->path() === $path, (string) $e?->getMessage());
    $c->run("read loosely $body", fn () => Canonical::parseLoose($body));
}
$c->run('a nested senderKey is no R4', fn () => Signer::sign('{"a":{"senderKey":"k"}}', $key));
$c->run('a null member verifies and is skipped', function () use ($c, $key): void {
    $flat = Canonical::parse('{"a":null,"b":{"c":null}}');
    $c->equal('no pairs', [], $flat->pairs());
    $c->equal('the first null', 'a', $flat->firstNullPath());
    $c->equal('signs as {}', '1f5a8ebed9df0b508f452edb744bab2787c6998001199c75b7e8dd6e72221d08', $flat->signatureHex($key));
});
$c->equal('a signer skips a null member', Signer::sign('{"x":1}', $key), Signer::sign('{"x":1,"b":{"c":null}}', $key));
$c->equal('... and lists it', ['b.c', 'd'], Canonical::parseForSigning('{"x":1,"b":{"c":null},"d":null}')->skippedNulls());
$e = $c->raises('a signer refuses a null array element', CanonicalException::class, fn () => Signer::sign('{"x":1,"b":[{"c":1},null]}', $key));
$c->check('R2 at b[1]', $e?->rule() === Ambiguity::NULL && $e->path() === 'b[1]', (string) $e?->getMessage());
$c->equal('R1 to R4', ['R1', 'R2', 'R3', 'R4'], array_map(fn (Ambiguity $a) => $a->id(), Ambiguity::cases()));

foreach (['Tom & Jerry', 'a&b', 'a=b&c', '&=x', '&a..b=', '&a[]=', '&a[1]b=', '&', '', '&a.=', '&a[1=', 'x&a]b=', '&a[1'] as $s) {
    $c->check("R3 does not read \"$s\" as a pair", !Canonical::readsAsPair($s));
}
foreach (['x&data.result[1].amount=9', 'a&b=c', 'Tom & Jerry = x', '&a[0][12].b=', '&&a=', 'a&b&c=d',
    "&\u{e9}.\u{1F600}=", '&a[1]=', '& x.y =', '&a.b[2][3].c.d=', "&\n=", ] as $s) {
    $c->check("R3 reads \"$s\" as a pair", Canonical::readsAsPair($s));
}

// ---- depth and size ----
$max = Canonical::MAX_DEPTH;
$c->run('nesting of 64 is read', fn () => Canonical::parse('{"a":' . str_repeat('[', $max - 1) . str_repeat(']', $max - 1) . '}'));
$deep = $c->raises('nesting of 65 is refused', CanonicalException::class,
    fn () => Canonical::parse('{"a":' . str_repeat('[', $max) . str_repeat(']', $max) . '}'));
$c->equal('as too_deep', CanonicalException::TOO_DEEP, $deep?->kind());
$c->equal('its message', 'JSON nested deeper than 64 levels', $deep?->getMessage());
$c->run('objects nested 64 deep are read', fn () => Canonical::parse(str_repeat('{"a":', $max - 1) . '{}' . str_repeat('}', $max - 1)));
$objects = $c->raises('objects nested 65 deep are refused', CanonicalException::class,
    fn () => Canonical::parse(str_repeat('{"a":', $max) . '{}' . str_repeat('}', $max)));
$c->equal('as too_deep', CanonicalException::TOO_DEEP, $objects?->kind());
$start = microtime(true);
$far = $c->raises('nesting of 100000 is refused', CanonicalException::class,
    fn () => Canonical::parse('{"a":' . str_repeat('[', 100000) . str_repeat(']', 100000) . '}'));
$c->check('at once', $far?->kind() === CanonicalException::TOO_DEEP && microtime(true) - $start < 2.0);
// A long key above many short values: the pairs would be quadratic in the body.
$body = '{"' . str_repeat('k', 4096) . '":[' . str_repeat('1,', 19999) . '1]}';
$large = $c->raises('a quadratic expansion is refused', CanonicalException::class, fn () => Canonical::parse($body));
$c->check('as too_large, where it goes over', $large?->kind() === CanonicalException::TOO_LARGE
    && $large->offset() !== null && $large->offset() < strlen($body), (string) $large?->getMessage());
$dense = '{"data":{"list":[' . str_repeat('1,', 49999) . '1]}}';
$c->run('a dense legitimate body is read', function () use ($c, $dense): void {
    $total = array_sum(array_map('strlen', Canonical::parse($dense)->pairs()));
    $c->check('within the budget', $total <= strlen($dense) * Canonical::MAX_EXPANSION + Canonical::EXPANSION_ALLOWANCE);
});

// ---- attach ----
$c->equal('attach to {}', '{"signature":"ab"}', Signer::attachSignature('{}', 'ab'));
$c->equal('attach drops trailing whitespace', '{"a":1,"signature":"ab"}', Signer::attachSignature("{\"a\":1} \n", 'ab'));
$c->equal('attach keeps inner whitespace', '{ "a" : 1 ,"signature":"ab"}', Signer::attachSignature('{ "a" : 1 }', 'ab'));
$c->equal('attach after { and whitespace', "{ \n\"signature\":\"ab\"}", Signer::attachSignature("{ \n}", 'ab'));
foreach (['[1]', '}', ''] as $bad) {
    $c->raises("attach refuses $bad", CanonicalException::class, fn () => Signer::attachSignature($bad, 'ab'));
}
foreach (['{"a":1,"signature":"00"}', '{"signature":null}'] as $signed) {
    $e = $c->raises("attach refuses $signed", CanonicalException::class, fn () => Signer::attach($signed, $key));
    $c->equal('already_signed', CanonicalException::ALREADY_SIGNED, $e?->kind());
}
$c->equal('sign ignores a signature already there', Signer::sign('{"a":1}', $key), Signer::sign('{"a":1,"signature":"x"}', $key));
$c->equal('attach signs and adds', '{"a":100.50,"signature":"' . Signer::sign('{"a":100.50}', $key) . '"}', Signer::attach('{"a":100.50}', $key));

// ---- tampering ----
$body = '{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE",'
    . '"timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester","amount":100.50}}';
$signed = Signer::attach($body, $key);
$c->run('the signed body verifies', fn () => Signer::verify($signed, $key));
$missing = $c->raises('no signature', VerifyException::class, fn () => Signer::verify($body, $key));
$c->equal('is MISSING', VerifyException::MISSING, $missing?->kind());
$other = $c->raises('another key', VerifyException::class, fn () => Signer::verify($signed, new PrivateKey('otherkey')));
$c->equal('is MISMATCH', VerifyException::MISMATCH, $other?->kind());
$accepted = 0;
for ($i = 0; $i < strlen($signed); $i++) {
    $changed = $signed;
    $changed[$i] = chr(ord($changed[$i]) ^ 0x01);
    try {
        Signer::verify($changed, $key);
        $accepted++;
        $c->check("byte $i changed is refused", false, $changed);
    } catch (VerifyException) {
        // refused
    }
}
$c->equal('no changed byte verifies', 0, $accepted);
$c->raises('100.50 re-rendered as 100.5 does not verify', VerifyException::class,
    fn () => Signer::verify(str_replace('100.50', '100.5', $signed), $key));
$decoded = json_encode(json_decode($signed), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
$c->raises('json_decode then json_encode does not verify', VerifyException::class, fn () => Signer::verify((string) $decoded, $key));
$c->run('whitespace between tokens is not signed', fn () => Signer::verify(str_replace(',"salt":', " ,\n\t\"salt\" : ", $signed), $key));
$c->raises('a signature in upper case does not verify', VerifyException::class,
    fn () => Signer::verify(preg_replace_callback('/"signature":"([0-9a-f]+)"/', fn ($m) => '"signature":"' . strtoupper($m[1]) . '"', $signed), $key));
$c->check('constant-time equality', Signer::constantTimeEquals('ab', 'ab') && !Signer::constantTimeEquals('ab', 'ac')
    && !Signer::constantTimeEquals('ab', 'abc') && !Signer::constantTimeEquals('abc', 'ab'));

exit($c->finish());
