<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * One pass over a body (already checked to be valid UTF-8): the value tree, the pairs in
 * document order and the checks, refusing as soon as a limit or rule is broken. A port of
 * the Python reference's `_Parser` (and of the Java library's `CanonicalReader`); PHP
 * strings are bytes, so every length here is a UTF-8 length.
 *
 * @internal use {@see Canonical::parse()}
 */
final class CanonicalReader
{
    private const SIGNATURE = 'signature';
    private const WHITESPACE = " \t\n\r";
    private const DIGITS = '0123456789';
    private const HEX = '0123456789abcdefABCDEF';
    /** The bytes that end a plain run of a string: the quote, the backslash, controls. */
    private const STRING_STOPS = "\"\\\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0A\x0B\x0C\x0D\x0E\x0F"
        . "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F";

    /** The two-character escapes and what they stand for. */
    private const ESCAPES = ['"' => '"', '\\' => '\\', '/' => '/', 'b' => "\x08", 'f' => "\x0C",
        'n' => "\n", 'r' => "\r", 't' => "\t"];

    private int $pos = 0;
    private readonly int $length;
    private int $pairBytes = 0;

    /** @var list<string> the pairs in document order */
    public array $pairs = [];
    /** The top-level `signature` when it is a string. */
    public ?string $signature = null;
    /** Whether the body has a top-level `signature` (even `null`). */
    public bool $hasSignatureKey = false;
    /** Whether the body has a top-level `senderKey` (seen only without the rules). */
    public bool $hasSenderKeyPair = false;
    /** @var list<string> the paths of the `null`s skipped, in document order */
    public array $nullPaths = [];

    /**
     * A reader over a body.
     *
     * @param string $body the bytes, valid UTF-8
     * @param bool $unambiguous apply the re-cut rules
     * @param bool $nullMembers accept a `null` object member
     */
    public function __construct(
        #[\SensitiveParameter] private readonly string $body,
        private bool $unambiguous,
        private readonly bool $nullMembers,
    ) {
        $this->length = strlen($body);
    }

    private function syntax(string $expected): CanonicalException
    {
        return CanonicalException::at(
            CanonicalException::SYNTAX,
            'invalid JSON at byte ' . $this->pos . ': expected ' . $expected,
            $this->pos,
        );
    }

    private function ws(): void
    {
        $this->pos += strspn($this->body, self::WHITESPACE, $this->pos);
    }

    private function peek(): string
    {
        return $this->pos < $this->length ? $this->body[$this->pos] : '';
    }

    private function withinBudget(): void
    {
        if ($this->pairBytes > $this->pos * Canonical::MAX_EXPANSION + Canonical::EXPANSION_ALLOWANCE) {
            throw CanonicalException::at(
                CanonicalException::TOO_LARGE,
                'the flattened pairs are more than ' . Canonical::MAX_EXPANSION
                    . ' times as long as the body at byte ' . $this->pos
                    . ' (each value repeats its whole path: long keys above many values)',
                $this->pos,
            );
        }
    }

    private function pair(string $path, string $text): void
    {
        $pair = $path . '=' . $text;
        $this->pairBytes += strlen($pair);
        $this->pairs[] = $pair;
    }

    /**
     * Reads the whole body: one object, then nothing but whitespace.
     *
     * @return JsonObject the top-level object
     * @throws CanonicalException when the body is refused
     */
    public function top(): JsonObject
    {
        $this->ws();
        if ($this->peek() !== '{') {
            throw CanonicalException::of(CanonicalException::NOT_AN_OBJECT, 'body is not a JSON object');
        }
        $value = $this->object(1, '', true);
        $this->ws();
        if ($this->pos !== $this->length) {
            throw $this->syntax('end of input');
        }
        return $value;
    }

    private static function tooDeep(): CanonicalException
    {
        return CanonicalException::of(
            CanonicalException::TOO_DEEP,
            'JSON nested deeper than ' . Canonical::MAX_DEPTH . ' levels',
        );
    }

    private function object(int $depth, string $path, bool $top): JsonObject
    {
        if ($depth > Canonical::MAX_DEPTH) {
            throw self::tooDeep();
        }
        $this->pos++; // {
        $this->ws();
        $index = new KeyIndex();
        $values = [];
        if ($this->peek() === '}') {
            $this->pos++;
            if (!$top) {
                $this->pair($path, '{}');
            }
            return new JsonObject($index, $values);
        }
        $repeated = null;
        while (true) {
            $this->ws();
            if ($this->peek() !== '"') {
                throw $this->syntax('a key string');
            }
            $key = $this->string();
            $member = $top ? $key : $path . '.' . $key;
            if ($this->unambiguous) {
                if (Canonical::badKey($key)) {
                    throw CanonicalException::ambiguous(Ambiguity::KEY, $member);
                }
                if ($top && $key === Canonical::SENDER_KEY) {
                    throw CanonicalException::ambiguous(Ambiguity::SENDER_KEY, $member);
                }
            } elseif ($top && $key === Canonical::SENDER_KEY) {
                $this->hasSenderKeyPair = true;
            }
            $this->ws();
            if ($this->peek() !== ':') {
                throw $this->syntax('`:`');
            }
            $this->pos++;
            $this->ws();
            $value = $top && $key === self::SIGNATURE
                ? $this->signatureValue($depth)
                : $this->value($depth, $member, true);
            $earlier = $index->add($key);
            if ($earlier < 0) {
                $values[] = $value;
            } elseif ($repeated === null) {
                $repeated = $member;
            }
            $this->withinBudget();
            $this->ws();
            $c = $this->peek();
            if ($c === ',') {
                $this->pos++;
            } elseif ($c === '}') {
                $this->pos++;
                break;
            } else {
                throw $this->syntax('`,` or `}`');
            }
        }
        if ($repeated !== null) {
            throw CanonicalException::duplicateKey($repeated);
        }
        return new JsonObject($index, $values);
    }

    /** @return list<mixed> */
    private function array(int $depth, string $path): array
    {
        if ($depth > Canonical::MAX_DEPTH) {
            throw self::tooDeep();
        }
        $this->pos++; // [
        $this->ws();
        $out = [];
        if ($this->peek() === ']') {
            $this->pos++;
            $this->pair($path, '[]');
            return $out;
        }
        $index = 0;
        while (true) {
            $this->ws();
            $out[] = $this->value($depth, $path . '[' . $index . ']', false);
            $this->withinBudget();
            $index++;
            $this->ws();
            $c = $this->peek();
            if ($c === ',') {
                $this->pos++;
            } elseif ($c === ']') {
                $this->pos++;
                return $out;
            } else {
                throw $this->syntax('`,` or `]`');
            }
        }
    }

    private function value(int $depth, string $path, bool $inObject): mixed
    {
        $c = $this->peek();
        if ($c === '{') {
            return $this->object($depth + 1, $path, false);
        }
        if ($c === '[') {
            return $this->array($depth + 1, $path);
        }
        if ($c === '"') {
            $text = $this->string();
            if ($this->unambiguous && Canonical::readsAsPair($text)) {
                throw CanonicalException::ambiguous(Ambiguity::VALUE_READS_AS_PAIR, $path);
            }
            $this->pair($path, $text);
            return $text;
        }
        if ($c === 't') {
            $this->keyword('true');
            $this->pair($path, 'true');
            return true;
        }
        if ($c === 'f') {
            $this->keyword('false');
            $this->pair($path, 'false');
            return false;
        }
        if ($c === 'n') {
            $this->keyword('null');
            if ($this->unambiguous && !($inObject && $this->nullMembers)) {
                throw CanonicalException::ambiguous(Ambiguity::NULL, $path);
            }
            $this->nullPaths[] = $path;
            return null;
        }
        if ($c === '-' || ($c !== '' && strspn($c, self::DIGITS) === 1)) {
            $literal = $this->number();
            $this->pair($path, $literal);
            return new JsonNumber($literal);
        }
        throw $this->syntax('a JSON value');
    }

    /** A number, as `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` (longest match). */
    private function number(): string
    {
        $body = $this->body;
        $n = $this->length;
        $i = $this->pos;
        if ($body[$i] === '-') {
            $i++;
        }
        if ($i < $n && $body[$i] === '0') {
            $i++;
        } elseif ($i < $n && strspn($body, '123456789', $i, 1) === 1) {
            $i += 1 + strspn($body, self::DIGITS, $i + 1);
        } else {
            throw $this->syntax('a digit');
        }
        if ($i + 1 < $n && $body[$i] === '.' && strspn($body, self::DIGITS, $i + 1, 1) === 1) {
            $i += 1 + strspn($body, self::DIGITS, $i + 1);
        }
        if ($i < $n && ($body[$i] === 'e' || $body[$i] === 'E')) {
            $j = $i + 1;
            if ($j < $n && ($body[$j] === '+' || $body[$j] === '-')) {
                $j++;
            }
            $digits = strspn($body, self::DIGITS, $j);
            if ($digits > 0) {
                $i = $j + $digits;
            }
        }
        $literal = substr($body, $this->pos, $i - $this->pos);
        $this->pos = $i;
        return $literal;
    }

    private function keyword(string $word): void
    {
        if (substr($this->body, $this->pos, strlen($word)) !== $word) {
            throw $this->syntax('a JSON value');
        }
        $this->pos += strlen($word);
    }

    /**
     * The string at `pos` (unescaped). Any error is reported at the opening quote, a lone
     * surrogate only once the string is otherwise valid (as the reference does).
     */
    private function string(): string
    {
        $body = $this->body;
        $n = $this->length;
        $start = $this->pos;
        $i = $start + 1;
        $run = strcspn($body, self::STRING_STOPS, $i);
        $i += $run;
        if ($i < $n && $body[$i] === '"') {
            $this->pos = $i + 1;
            return substr($body, $start + 1, $run);
        }
        $text = substr($body, $start + 1, $run);
        $lone = false;
        while (true) {
            if ($i >= $n || $body[$i] !== '\\') {
                if ($i < $n && $body[$i] === '"') {
                    break;
                }
                // The end of the body, or a control character.
                $this->pos = $start;
                throw $this->syntax('a valid JSON string');
            }
            $e = $i + 1 < $n ? $body[$i + 1] : '';
            if ($e === 'u') {
                if (strspn($body, self::HEX, $i + 2, 4) !== 4) {
                    $this->pos = $start;
                    throw $this->syntax('a valid JSON string');
                }
                $unit = (int) hexdec(substr($body, $i + 2, 4));
                $i += 6;
                if ($unit >= 0xD800 && $unit <= 0xDBFF && substr($body, $i, 2) === '\\u'
                    && strspn($body, self::HEX, $i + 2, 4) === 4) {
                    $low = (int) hexdec(substr($body, $i + 2, 4));
                    if ($low >= 0xDC00 && $low <= 0xDFFF) {
                        $unit = 0x10000 + (($unit - 0xD800) << 10) + ($low - 0xDC00);
                        $i += 6;
                    }
                }
                if ($unit >= 0xD800 && $unit <= 0xDFFF) {
                    $lone = true;
                } else {
                    $text .= self::utf8($unit);
                }
            } else {
                if (!isset(self::ESCAPES[$e])) {
                    $this->pos = $start;
                    throw $this->syntax('a valid JSON string');
                }
                $text .= self::ESCAPES[$e];
                $i += 2;
            }
            $run = strcspn($body, self::STRING_STOPS, $i);
            $text .= substr($body, $i, $run);
            $i += $run;
        }
        if ($lone) {
            $this->pos = $start;
            throw $this->syntax('no lone surrogate `\\uD800`-`\\uDFFF`');
        }
        $this->pos = $i + 1;
        return $text;
    }

    /** The UTF-8 bytes of a code point (not a surrogate). */
    private static function utf8(int $cp): string
    {
        if ($cp < 0x80) {
            return chr($cp);
        }
        if ($cp < 0x800) {
            return chr(0xC0 | ($cp >> 6)) . chr(0x80 | ($cp & 0x3F));
        }
        if ($cp < 0x10000) {
            return chr(0xE0 | ($cp >> 12)) . chr(0x80 | (($cp >> 6) & 0x3F)) . chr(0x80 | ($cp & 0x3F));
        }
        return chr(0xF0 | ($cp >> 18)) . chr(0x80 | (($cp >> 12) & 0x3F))
            . chr(0x80 | (($cp >> 6) & 0x3F)) . chr(0x80 | ($cp & 0x3F));
    }

    /** The top-level `signature`: a string, `null`, or refused once read through. */
    private function signatureValue(int $depth): mixed
    {
        $this->hasSignatureKey = true;
        $c = $this->peek();
        if ($c === 'n') {
            $this->keyword('null');
            return null;
        }
        if ($c === '"') {
            $text = $this->string();
            $this->signature = $text;
            return $text;
        }
        // Read it all first so that a syntax error is reported as such.
        $saved = $this->unambiguous;
        $count = count($this->pairs);
        $savedBytes = $this->pairBytes;
        $this->unambiguous = false;
        $this->value($depth, self::SIGNATURE, true);
        $this->unambiguous = $saved;
        array_splice($this->pairs, $count);
        $this->pairBytes = $savedBytes;
        throw CanonicalException::of(CanonicalException::SIGNATURE_NOT_STRING, '`signature` is not a string');
    }
}
