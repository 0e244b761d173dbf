<?php

declare(strict_types=1);

/*
 * The fast reading (FastReader: json_decode paired with scans of the raw bytes) against the
 * reader (CanonicalReader, one pass in PHP), which decides: on thousands of seeded bodies
 * (numbers in every form, escapes, unicode, nulls, empty containers, repeated keys, keys and
 * values the re-cut rules refuse, nesting and paths near the limits, keys "0", stray quotes),
 * Canonical::parse gives the same canonical string, signature and skipped nulls, or the same
 * refusal (kind, rule, path, message), as the reader alone. Then hostile bodies: what the
 * fast reading hands to json_decode is counted and sized, never timed.
 */

namespace Baas\Signing\Tests;

use Baas\Signing\Canonical;
use Baas\Signing\CanonicalException;
use Baas\Signing\CanonicalReader;
use Baas\Signing\FastReader;
use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;
use Baas\Signing\Structure;

require_once __DIR__ . '/support/Checks.php';

$c = new Checks('FastReaderTest');
$key = new PrivateKey('fast-reader-key');

/** What the reader alone says of a body: its canonical string and more, or its refusal. */
function slow(string $body, PrivateKey $key): string
{
    try {
        $bad = Canonical::firstInvalidUtf8($body);
        if ($bad >= 0) {
            return 'refused invalid_utf8   body is not valid UTF-8 (byte ' . $bad . ')';
        }
        $reader = new CanonicalReader($body, true, true);
        $reader->top();
        $pairs = $reader->pairs;
        $pairs[] = 'senderKey=' . $key->expose();
        sort($pairs, SORT_STRING);
        return implode('&', $pairs) . ' | ' . var_export($reader->signature, true) . ' | '
            . var_export($reader->hasSignatureKey, true) . ' | ' . implode(',', $reader->nullPaths);
    } catch (CanonicalException $e) {
        return 'refused ' . $e->kind() . ' ' . $e->rule()?->id() . ' ' . $e->path() . ' ' . $e->getMessage();
    }
}

/** What Canonical::parse (the fast reading when it vouches) says of it. */
function parsed(string $body, PrivateKey $key): string
{
    try {
        $flat = Canonical::parse($body);
        return $flat->canonicalStringExposingKey($key) . ' | ' . var_export($flat->signature(), true) . ' | '
            . var_export($flat->hasSignatureKey(), true) . ' | ' . implode(',', $flat->skippedNulls());
    } catch (CanonicalException $e) {
        return 'refused ' . $e->kind() . ' ' . $e->rule()?->id() . ' ' . $e->path() . ' ' . $e->getMessage();
    }
}

/** A lossless tree as text: members in order, numbers as their literal, types shown. */
function dump(mixed $value): string
{
    if ($value instanceof JsonObject) {
        $out = [];
        foreach ($value as $key => $member) {
            $out[] = json_encode($key) . ':' . dump($member);
        }
        return '{' . implode(',', $out) . '}';
    }
    if (is_array($value)) {
        return '[' . implode(',', array_map('Baas\Signing\Tests\dump', $value)) . ']';
    }
    if ($value instanceof JsonNumber) {
        return 'N' . $value->literal;
    }
    return var_export($value, true);
}

/** Seeded bodies, each with at most a few oddities. */
final class Bodies
{
    private const KEYS = ['a', 'b', 'id', 'amount', 'x_y', 'Z9', '0', '1', '10', 'é', '日本', 'k-1', 'signature',
        'senderKey', 'a.b', 'a&b', 'a=b', 'a[0]', '', 'sender', 'senderKeyX', '\u0061', '\u002e', 'n\"q'];
    private const NUMBERS = ['0', '-0', '1', '-1', '100.50', '0.10', '1e5', '1E+5', '-2.5e-3', '1e400', '12345678901234567890123',
        '9223372036854775807', '9223372036854775808', '3.141592653589793238462643383279', '0.0', '2E-0', '01', '1.', '-', '+1', '.5'];
    /** Every 5th (at 0, 4.6, 9.2, 13.8, 18.4) is one any reader accepts. */
    private const STRINGS = ['x', '', '100.50', 'Tom & Jerry', 'a&b=c', 'x&data.result[1].amount=9', 'é', '🎉', '\n', '\"',
        '\\\\', '\/', '\u00e9', '\ud83c\udf89', '\u0000', '\u0026a=1', 'null', '1', '{}', '[]', '\ud800', 'a"b', 'ok:yes', '\u0030'];
    /** Strings every reader accepts. */
    private const CLEAN_STRINGS = ['x', '', '100.50', 'é', '🎉', '\n', '\"', '\\\\', '\/', '\u00e9', '\ud83c\udf89', 'ok:yes', '\u0030'];
    private const WS = ['', '', '', ' ', "\n", "\t", "\r\n"];

    /** Whether this body holds only what every reader accepts (keys, numbers, strings). */
    public bool $clean = false;

    public function __construct(private int $depthLeft = 6)
    {
    }

    public function ws(): string
    {
        return self::WS[mt_rand(0, count(self::WS) - 1)];
    }

    public function key(): string
    {
        $keys = $this->clean ? 10 : count(self::KEYS);
        return '"' . (mt_rand(0, 9) < 7 ? 'k' . mt_rand(0, 30) : self::KEYS[mt_rand(0, $keys - 1)]) . '"';
    }

    public function value(int $depth): string
    {
        $roll = mt_rand(0, 99);
        if ($depth < $this->depthLeft && $roll < 15) {
            return $this->object($depth + 1);
        }
        if ($depth < $this->depthLeft && $roll < 25) {
            $n = mt_rand(0, 12);
            $items = [];
            for ($i = 0; $i < $n; $i++) {
                $items[] = $this->ws() . $this->value($depth + 1) . $this->ws();
            }
            return '[' . implode(',', $items) . ']';
        }
        if ($roll < 45) {
            return self::NUMBERS[mt_rand(0, count(self::NUMBERS) - ($this->clean ? 6 : 1))];
        }
        if ($roll < 50) {
            return ['true', 'false', 'null', 'nul'][mt_rand(0, $this->clean ? 2 : 3)];
        }
        $strings = $this->clean ? self::CLEAN_STRINGS : self::STRINGS;
        return '"' . $strings[mt_rand(0, count($strings) - 1)] . (mt_rand(0, 3) === 0 ? 'v' . mt_rand(0, 99) : '') . '"';
    }

    public function object(int $depth): string
    {
        $n = mt_rand(0, 8);
        $members = [];
        for ($i = 0; $i < $n; $i++) {
            $members[] = $this->ws() . $this->key() . $this->ws() . ':' . $this->ws() . $this->value($depth) . $this->ws();
        }
        return '{' . implode(',', $members) . '}';
    }

    /** A body: mostly plain, sometimes broken in one place. */
    public function body(): string
    {
        $this->clean = mt_rand(0, 1) === 0;
        $body = $this->object(1);
        $roll = mt_rand(0, 99);
        if ($roll < 5 && strlen($body) > 2) {
            $at = mt_rand(1, strlen($body) - 1);
            $body = substr($body, 0, $at) . ['"', '\\', ',', '}', ':', "\x01", "\xff", '1'][mt_rand(0, 7)] . substr($body, $at);
        } elseif ($roll < 10) {
            $body = substr($body, 0, -1) . ($body === '{}' ? '' : ',') . '"signature":' . $this->value(1) . '}';
        } elseif ($roll < 14) {
            $body = str_repeat('{"d":', 60 + mt_rand(0, 8)) . $body . str_repeat('}', 60 + mt_rand(0, 8));
        } elseif ($roll < 17) {
            $body = '{"' . str_repeat('p', mt_rand(40, 140)) . '":' . $body . '}';
        }
        return $body;
    }
}

mt_srand(20261128);
$gen = new Bodies();
$fast = 0;
$total = 2500;
$differences = 0;
$trees = 0;
for ($i = 0; $i < $total; $i++) {
    $body = $gen->body();
    if (FastReader::read($body) !== null) {
        $fast++;
        // The lossless tree built from json_decode is the reader's.
        $tree = FastReader::lossless($body);
        $expectedTree = dump((new CanonicalReader($body, true, true))->top());
        if ($tree !== null && dump($tree) !== $expectedTree && $trees++ < 3) {
            $c->equal('the same tree of ' . $body, $expectedTree, dump($tree));
        }
        // ... and the one read with the pairs, from the same decoding.
        $withValue = Canonical::parseWithValue($body);
        if (dump($withValue->value()) !== $expectedTree && $trees++ < 3) {
            $c->equal('the same tree, read with the pairs, of ' . $body, $expectedTree, dump($withValue->value()));
        }
        if ($withValue->canonicalStringExposingKey($key) . ' | ' . var_export($withValue->signature(), true) !== implode(' | ', array_slice(explode(' | ', parsed($body, $key)), 0, 2))
            && $differences++ < 5) {
            $c->equal('the same pairs, read with the tree, of ' . $body, parsed($body, $key), $withValue->canonicalStringExposingKey($key));
        }
    }
    $expected = slow($body, $key);
    $got = parsed($body, $key);
    if ($expected !== $got && $differences++ < 5) {
        $c->equal('the same reading of ' . $body, $expected, $got);
    }
}
$c->equal("$total seeded bodies read alike", 0, $differences);
$c->equal('... with the same lossless tree', 0, $trees);
$c->check('a number keeps its literal in the tree', dump(FastReader::lossless('{"a":100.50,"b":[-0,"1e5",1E+5],"c":{}}')) === '{"a":N100.50,"b":[N-0,\'1e5\',N1E+5],"c":{}}');
$c->check("the fast reading vouches for many of them ($fast of $total)", $fast > $total / 3, (string) $fast);

// Signer::verify lists a short body's pairs with the key's own pair: it accepts what the reader
// signs and refuses what the reader refuses, with the same cause.
mt_srand(20261129);
$verified = 0;
$verifyDifferences = 0;
for ($i = 0; $i < 1500; $i++) {
    $body = $gen->body();
    $expected = slow($body, $key);
    if (str_starts_with($expected, 'refused')) {
        try {
            Signer::verify($body, $key);
            $got = 'accepted';
        } catch (VerifyException $e) {
            $cause = $e->getPrevious();
            $got = $cause instanceof CanonicalException
                ? 'refused ' . $cause->kind() . ' ' . $cause->rule()?->id() . ' ' . $cause->path() . ' ' . $cause->getMessage()
                : $e->kind();
        }
    } else {
        // Signed with the reader's canonical string: verify accepts it, and refuses it with one
        // digit changed.
        $canonical = explode(' | ', $expected)[0];
        $signature = hash('sha256', $canonical);
        $signed = preg_match('/"signature"\s*:/', $body) === 1 ? null : Signer::attachSignature($body, $signature);
        if ($signed === null) {
            continue;
        }
        $expected = 'accepted, then mismatch';
        try {
            Signer::verify($signed, $key);
            $got = 'accepted';
            $verified++;
        } catch (VerifyException $e) {
            $got = $e->kind() . ' ' . $e->getPrevious()?->getMessage();
        }
        try {
            Signer::verify(str_replace($signature, strrev($signature), $signed), $key);
            $got .= $signature === strrev($signature) ? ', then mismatch' : ', then accepted';
        } catch (VerifyException $e) {
            $got .= ', then ' . $e->kind();
        }
    }
    if ($expected !== $got && $verifyDifferences++ < 5) {
        $c->equal('verify reads alike ' . $body, $expected, $got);
    }
}
$c->equal('1500 seeded bodies verified alike', 0, $verifyDifferences);
$c->check("... many of them signed and accepted ($verified)", $verified > 300, (string) $verified);

// A short body without a fraction or `-0` is decoded as it is (integers are PHP integers); a
// number that is not one (an exponent, an integer beyond 64 bits) reads as a float there, and the
// body is read again with its numbers rewritten: the same pairs either way.
foreach (['{"a":1,"b":[2,-3],"c":{"d":9223372036854775807}}' => 0, '{"a":"1.5","b":"x-0"}' => 0, '{"a":1.5}' => 1,
    '{"a":-0}' => 1, '{"a":[-0 ]}' => 1, '{"a":1e5}' => 1, '{"a":1E+5,"b":2}' => 1, '{"a":12345678901234567890123}' => 1,
    '{"a":9223372036854775808}' => 1, '{"a":-9223372036854775809}' => 1, '{"a":-9223372036854775808}' => 0,
    '{"a":"v 1.5 x"}' => 1, '{"a":0,"b":"-0"}' => 0, '{"a":2e-0,"a":"2e-0"}' => 1, '{"signature":5,"a":1}' => 0] as $body => $rewrites) {
    FastReader::$rewrites = 0;
    FastReader::read($body);
    $c->equal("... rewritten $rewrites time(s) by the fast reading: $body", $rewrites, FastReader::$rewrites);
    $c->equal("numbers read alike: $body", slow($body, $key), parsed($body, $key));
}

// An answer verified and decoded from one reading: its numbers rewritten once, kept as their text.
$answer = Signer::attach('{"requestId":"R1","code":"00000","msg":"ok","data":{"fee":0.50,"rows":[{"n":1,"amount":"2.5"},{"n":-0}],"e":{},'
    . '"big":12345678901234567890,"x":1E+2}}', $key);
FastReader::$rewrites = 0;
$opened = Signer::verifyAnswer($answer, 'R1', $key);
$c->equal('verifyAnswer rewrites the numbers once', 1, FastReader::$rewrites);
$c->equal('... and its tree keeps them', dump((new CanonicalReader($answer, true, true))->top()), dump($opened->body->value()));
$c->check('... as JsonNumber', $opened->body->value()->get('data')->get('fee') instanceof JsonNumber
    && $opened->body->value()->get('data')->get('fee')->literal === '0.50');
foreach (['{"a":1.5,"signature":5}', '{"a":1.5,"signature":"5"}', '{"a":1.5,"signature":"\u00005"}', '{"a":"\u0000","b":2.5}',
    '{"a":1,"b":[1,2]}', '{"0":1.5}', '{"a":{"0":"x"},"b":{ },"c":[]}'] as $body) {
    $c->equal("read with the tree alike: $body", parsed($body, $key), (function () use ($body, $key): string {
        try {
            $flat = Canonical::parseWithValue($body);
            $flat->value();
            return $flat->canonicalStringExposingKey($key) . ' | ' . var_export($flat->signature(), true) . ' | '
                . var_export($flat->hasSignatureKey(), true) . ' | ' . implode(',', $flat->skippedNulls());
        } catch (CanonicalException $e) {
            return 'refused ' . $e->kind() . ' ' . $e->rule()?->id() . ' ' . $e->path() . ' ' . $e->getMessage();
        }
    })());
}

// Bodies the number rewriting could have turned valid: left to the reader, refused as before.
foreach (['{"a":"\1}', '{1:2}', '{"a":1:2}', '{"a":"x 5}', '{"a":"\"5}', '{"a" 5}', '{"a":[1 2]}', '{"a":01}', '{"a":-}',
    '{"a":1.}', '{"a":.5}', '{"a":+1}', '{"a":1e}', '{"a":"5"5}', '[{"a":1}]', '{"a":1}x', '{"a":1,}'] as $body) {
    $c->equal("the fast reading declines $body", null, FastReader::read($body));
    $c->check("$body is refused", str_starts_with(parsed($body, $key), 'refused'), parsed($body, $key));
}
// json_decode reads UTF-8 as strictly as the reader: the fast reading never accepts invalid UTF-8.
foreach (["\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80", "\xe2(\xa1", "\xf8\x88\x80\x80\x80", "\x80"] as $bad) {
    foreach (['{"a":"' . $bad . '"}', '{"' . $bad . '":1}', '{"a":1}' . $bad, '{"a":1,' . $bad . '"b":2}'] as $body) {
        $c->equal('invalid UTF-8 declined: ' . bin2hex($body), null, FastReader::read($body));
    }
}
// A number written as the top-level signature is refused as the reader refuses it.
$c->equal('a numeric signature', slow('{"a":1,"signature":5}', $key), parsed('{"a":1,"signature":5}', $key));
$c->equal('a signature that reads as a number', slow('{"a":1,"signature":"5"}', $key), parsed('{"a":1,"signature":"5"}', $key));

// Hostile bodies, counted and sized. json_decode hashes keys with an unkeyed function: in a
// body with one object of many members, keys chosen to collide would make it quadratic.
// "Ez" and "FY" hash alike, so 2^12 keys of 12 such pairs all collide.
$colliding = [];
for ($i = 0; $i < 4096; $i++) {
    $k = '';
    for ($bit = 0; $bit < 12; $bit++) {
        $k .= ($i >> $bit) & 1 ? 'FY' : 'Ez';
    }
    $colliding[] = '"' . $k . '":1';
}
$crowded = '{"big":{' . implode(',', $colliding) . '}}';
$c->check('4096 colliding keys', count($colliding) === 4096, (string) count($colliding));
Structure::$passes = 0;
$c->equal('an object of more than ' . FastReader::MAX_MEMBERS . ' members is never decoded by json_decode', null, FastReader::read($crowded));
$c->check('... found in one pass over its structure', Structure::$passes <= 2, (string) Structure::$passes);
$c->check('... and read by the reader', str_starts_with(parsed($crowded, $key), 'big.EzEz'), substr(parsed($crowded, $key), 0, 40));
$exactly = '{' . implode(',', array_slice($colliding, 0, FastReader::MAX_MEMBERS)) . '}';
$c->check('an object of ' . FastReader::MAX_MEMBERS . ' members is read fast', FastReader::read($exactly) !== null);
$hidden = '{"a":{' . implode(',', array_map(fn ($k) => substr($k, 0, -1) . '{}', array_slice($colliding, 0, 200))) . '}}';
$c->equal('members hidden among nested objects are counted too', null, FastReader::read($hidden));
foreach ([100000, 65, 64] as $depth) {
    Structure::$passes = 0;
    $deep = str_repeat('{"a":', $depth) . '1' . str_repeat('}', $depth);
    $read = FastReader::read($deep);
    $c->check("nesting $depth: at most " . (Canonical::MAX_DEPTH + 1) . ' passes over the structure',
        Structure::$passes <= Canonical::MAX_DEPTH + 1,
        (string) Structure::$passes);
    $c->check("nesting $depth: " . ($depth > 64 ? 'left to the reader' : 'read fast'), ($read === null) === ($depth > 64));
}
// Paths long enough that the expansion limit could be reached are left to the reader.
$long = '{"' . str_repeat('k', 200) . '":{"a":1}}';
$c->equal('a path over 126 bytes', null, FastReader::read($long));
$c->equal('... read alike', slow($long, $key), parsed($long, $key));
$expanding = '{"' . str_repeat('k', 1000) . '":' . str_repeat('{"' . str_repeat('k', 1000) . '":', 60) . '[' . implode(',', array_fill(0, 3000, '1'))
    . ']' . str_repeat('}', 61);
$c->check('an expanding body: refused as too large', str_starts_with(parsed($expanding, $key), 'refused too_large'), substr(parsed($expanding, $key), 0, 60));
$longArray = '{"' . str_repeat('k', 120) . '":[' . implode(',', array_fill(0, 5000, '1')) . ']}';
$c->check('a long path over many short elements: refused as too large', str_starts_with(parsed($longArray, $key), 'refused too_large'),
    substr(parsed($longArray, $key), 0, 60));
foreach (['{ }', '{"a":{ },"b":[ ],"c":1}', '{"a":[{ },[]],"b":{"c":{}}}', '{"a":{"0":"x","1":"y"},"b":["x","y"]}', '{"a":{"\u0030":"x"}}',
    '{"a":[],"b":{}}', '{"z":{"\n":1},"y":{"1":2,"0":3}}'] as $body) {
    $c->equal("objects that read like lists: $body", slow($body, $key), parsed($body, $key));
    $c->check("... read fast: $body", FastReader::read($body) !== null);
}
// Repeated keys hidden by what json_decode makes of numbers and empty objects.
foreach (['{"requestId":"R","params":{ },"requestId":1}', '{"a":"x","b":{ },"a":1.5}', '{"a":1,"a":"1"}', '{"a":1.5,"a":"1.5"}',
    '{"a":{"b":1},"c":[ ],"a":{"b":"1"}}', '{"x":-0,"x":"0"}', '{"0":1,"0":"1"}'] as $body) {
    $c->equal("repeated keys: $body", slow($body, $key), parsed($body, $key));
}
$allNull = '{"a":{"b":null},"c":[{"d":null}],"e":1}';
$c->equal('members all null: no pair for their object', slow($allNull, $key), parsed($allNull, $key));
$c->check('... read fast', FastReader::read($allNull) !== null);
// The pairs written are never longer than the limit allows.
$wide = '{"a":[' . implode(',', array_fill(0, 200000, '1')) . ']}';
$flat = Canonical::parse($wide);
$c->check('a wide array: pairs within the expansion limit', strlen($flat->canonicalStringExposingKey($key))
    <= Canonical::MAX_EXPANSION * strlen($wide) + Canonical::EXPANSION_ALLOWANCE);

exit($c->finish());
