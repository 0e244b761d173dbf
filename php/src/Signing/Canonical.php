<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The canonical string of the signing algorithm, computed from the JSON *bytes*.
 *
 * A message is flattened to `path=value` pairs: object keys joined with `.`, array elements
 * as `path[i]`, an empty object as `path={}`, an empty array as `path=[]`, nulls skipped,
 * the top-level `signature` left out. The pair `senderKey=<key>` is added, the complete pair
 * strings are sorted by their bytes (UTF-8), joined with `&` and hashed with SHA-256
 * (lowercase hex).
 *
 * The bytes are never read by `json_decode` alone (which turns `100.50` into `100.5`):
 * strings are unescaped, numbers keep their literal text. A body is first read by
 * {@see FastReader} (`json_decode` of the body with its numbers rewritten as strings, and
 * scans of the raw bytes for what `json_decode` hides); whatever it cannot vouch for is read
 * by {@see CanonicalReader}, this library's one-pass reader, which decides. Either way it
 * refuses, in time linear in the body:
 * - a body that is not valid UTF-8, not JSON, or whose top-level value is not an object;
 * - duplicate keys in one object; nesting deeper than {@see MAX_DEPTH};
 * - a body whose pairs, at any point of it, are longer than {@see MAX_EXPANSION} times the
 *   bytes read so far plus {@see EXPANSION_ALLOWANCE};
 *
 * and, read `unambiguous` (to sign or verify), a body whose canonical string could stand for
 * another body: the re-cut rules R1 to R4 of {@see Ambiguity}.
 */
final class Canonical
{
    /** Deepest nesting of objects and arrays accepted (the top-level object is depth 1). */
    public const MAX_DEPTH = 64;
    /** The pairs may be at most this many times as long as the bytes read so far ... */
    public const MAX_EXPANSION = 32;
    /** ... plus this many bytes (small bodies nested deep). */
    public const EXPANSION_ALLOWANCE = 64 * 1024;
    /** The longest body read, in bytes. */
    public const MAX_BODY = (1 << 29) - 1;
    /** The name of the pair that carries the key. */
    public const SENDER_KEY = 'senderKey';
    /**
     * A body may carry a `null` object member, read as absent (the document skips null values
     * when signing: a signer signs such a body and warns, {@see Flattened::skippedNulls()});
     * a `null` array element is refused (R2).
     */
    public const RECEIVED_NULL_MEMBERS = true;

    /** The bytes that separate the parts of a path: a key holding one is refused (R1). */
    private const SPECIAL = '&=.[]';

    private function __construct()
    {
    }

    /**
     * Reads a JSON object body.
     *
     * @param string $body the exact bytes received or to send
     * @param bool $unambiguous apply the re-cut rules (to sign or verify); without them any
     *     object is read (to diagnose it), nulls skipped
     * @param bool $nullMembers accept a `null` object member (treated as absent), never a
     *     `null` array element
     * @return Flattened the body flattened
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static function parse(
        #[\SensitiveParameter] string $body,
        bool $unambiguous = true,
        bool $nullMembers = self::RECEIVED_NULL_MEMBERS,
    ): Flattened {
        self::checkLength($body);
        // json_decode reads UTF-8 strictly (RFC 3629): what the fast reading accepts is valid.
        if ($unambiguous && $nullMembers) {
            $fast = FastReader::read($body);
            if ($fast !== null) {
                return self::ofFastReading($fast, $body);
            }
        }
        return self::readFully($body, $unambiguous, $nullMembers);
    }

    /**
     * Reads a received body to verify it and read its values ({@see Flattened::value()}):
     * as {@see parse()} reads it, the lossless tree built from the same reading (one
     * `json_decode`, where {@see parse()} then {@see Flattened::value()} would decode twice).
     *
     * @param string $body the exact bytes received
     * @return Flattened the body flattened, its lossless tree built
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static function parseWithValue(#[\SensitiveParameter] string $body): Flattened
    {
        self::checkLength($body);
        $fast = FastReader::read($body, null, true);
        if ($fast !== null) {
            return self::ofFastReading($fast, $body);
        }
        return self::readFully($body, true, self::RECEIVED_NULL_MEMBERS);
    }

    /**
     * Refuses a body longer than {@see MAX_BODY}.
     *
     * @internal
     * @param string $body the bytes
     * @throws CanonicalException when it is too long
     */
    public static function checkLength(#[\SensitiveParameter] string $body): void
    {
        if (strlen($body) > self::MAX_BODY) {
            throw CanonicalException::at(
                CanonicalException::TOO_LARGE,
                'the body is longer than ' . self::MAX_BODY . ' bytes',
                self::MAX_BODY,
            );
        }
    }

    /**
     * A body as {@see FastReader::read()} (without a key) read it.
     *
     * @internal
     * @param array{0: list<string>, 1: int, 2: ?string, 3: bool, 4: list<string>, 5?: ?JsonObject} $fast what it gave
     * @param string $body the bytes
     * @return Flattened the body flattened
     */
    public static function ofFastReading(array $fast, #[\SensitiveParameter] string $body): Flattened
    {
        [$sorted, $keyAt, $signature, $hasSignatureKey, $nullPaths] = $fast;
        return new Flattened($fast[5] ?? null, null, $signature, $hasSignatureKey, false, $nullPaths, $sorted, $body, $keyAt);
    }

    /**
     * Reads a body with {@see CanonicalReader} alone (as {@see parse()} does what the fast
     * reading declines), which says exactly why a body is refused.
     *
     * @internal
     * @param string $body the bytes (at most {@see MAX_BODY})
     * @param bool $unambiguous apply the re-cut rules
     * @param bool $nullMembers accept a `null` object member
     * @return Flattened the body flattened
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static function readFully(#[\SensitiveParameter] string $body, bool $unambiguous, bool $nullMembers): Flattened
    {
        if (preg_match('//u', $body) !== 1) {
            $bad = self::firstInvalidUtf8($body);
            if ($bad >= 0) {
                throw CanonicalException::at(
                    CanonicalException::INVALID_UTF8,
                    'body is not valid UTF-8 (byte ' . $bad . ')',
                    $bad,
                );
            }
        }
        $reader = new CanonicalReader($body, $unambiguous, $nullMembers);
        try {
            $value = $reader->top();
        } catch (CanonicalException $e) {
            // A fresh exception: its trace starts here, not in the reader's frames.
            throw $e->copy();
        }
        return new Flattened(
            $value,
            $reader->pairs,
            $reader->signature,
            $reader->hasSignatureKey,
            $reader->hasSenderKeyPair,
            $reader->nullPaths,
        );
    }

    /**
     * Reads a body to sign: the re-cut rules; a `null` member is skipped, as the document
     * says, and listed in {@see Flattened::skippedNulls()} for the signer to warn about; a
     * `null` array element is refused (R2).
     *
     * @param string $body the exact bytes to send (without `signature`)
     * @return Flattened the body flattened
     * @throws CanonicalException when the body is not a usable JSON object or breaks a rule
     */
    public static function parseForSigning(#[\SensitiveParameter] string $body): Flattened
    {
        return self::parse($body, true, true);
    }

    /**
     * Reads any JSON object without the re-cut rules (to diagnose a body, or to read JSON
     * losslessly); the limits still apply.
     *
     * @param string $body the bytes
     * @return Flattened the body flattened
     * @throws CanonicalException when the body is not a usable JSON object
     */
    public static function parseLoose(#[\SensitiveParameter] string $body): Flattened
    {
        return self::parse($body, false, true);
    }

    /**
     * Rule R3: the value holds `&`, then a key (bytes other than `& = . [ ]`), any number of
     * `.key` or `[digits]`, then `=`.
     *
     * @param string $value a string value (UTF-8)
     * @return bool true when the value reads as a pair
     */
    public static function readsAsPair(string $value): bool
    {
        $n = strlen($value);
        $amp = strpos($value, '&');
        while ($amp !== false) {
            $i = $amp + 1;
            $end = $i + strcspn($value, self::SPECIAL, $i);
            if ($end > $i) {
                $i = $end;
                while ($i < $n) {
                    $c = $value[$i];
                    if ($c === '=') {
                        return true;
                    } elseif ($c === '.') {
                        $end = $i + 1 + strcspn($value, self::SPECIAL, $i + 1);
                        if ($end === $i + 1) {
                            break;
                        }
                        $i = $end;
                    } elseif ($c === '[') {
                        $digits = strspn($value, '0123456789', $i + 1);
                        $j = $i + 1 + $digits;
                        if ($digits === 0 || $j >= $n || $value[$j] !== ']') {
                            break;
                        }
                        $i = $j + 1;
                    } else {
                        break;
                    }
                }
            }
            $amp = strpos($value, '&', $amp + 1);
        }
        return false;
    }

    /**
     * Rule R1: an empty key, or one holding a separator.
     *
     * @internal
     * @param string $key an object key
     * @return bool true when refused
     */
    public static function badKey(string $key): bool
    {
        return $key === '' || strcspn($key, self::SPECIAL) !== strlen($key);
    }

    /**
     * The offset of the first byte of the first ill-formed UTF-8 sequence (overlong forms,
     * surrogates and code points above U+10FFFF are ill-formed), or -1 when there is none.
     *
     * @internal
     * @param string $bytes any bytes
     * @return int the offset, or -1
     */
    public static function firstInvalidUtf8(#[\SensitiveParameter] string $bytes): int
    {
        static $ascii = null;
        $ascii ??= implode('', array_map('chr', range(0, 0x7F)));
        $n = strlen($bytes);
        $i = strspn($bytes, $ascii);
        while ($i < $n) {
            $c = ord($bytes[$i]);
            if ($c < 0x80) {
                $i += strspn($bytes, $ascii, $i);
                continue;
            }
            $lo = 0x80;
            $hi = 0xBF;
            if ($c >= 0xC2 && $c <= 0xDF) {
                $need = 1;
            } elseif ($c >= 0xE0 && $c <= 0xEF) {
                $need = 2;
                if ($c === 0xE0) {
                    $lo = 0xA0;
                } elseif ($c === 0xED) {
                    $hi = 0x9F;
                }
            } elseif ($c >= 0xF0 && $c <= 0xF4) {
                $need = 3;
                if ($c === 0xF0) {
                    $lo = 0x90;
                } elseif ($c === 0xF4) {
                    $hi = 0x8F;
                }
            } else {
                return $i;
            }
            if ($i + $need >= $n) {
                return $i;
            }
            $second = ord($bytes[$i + 1]);
            if ($second < $lo || $second > $hi) {
                return $i;
            }
            for ($k = 2; $k <= $need; $k++) {
                $cont = ord($bytes[$i + $k]);
                if ($cont < 0x80 || $cont > 0xBF) {
                    return $i;
                }
            }
            $i += $need + 1;
        }
        return -1;
    }
}
