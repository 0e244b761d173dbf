<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The canonical string of a body read by PHP's own JSON parser (`json_decode`, in C), paired
 * with scans of the raw bytes (`preg_*`, in C) for what `json_decode` drops or gets wrong:
 *
 * - number literals: every number outside a string is first rewritten as a JSON string of
 *   its literal text (`100.50` → `"100.50"`), so `json_decode` keeps the text (the pair of a
 *   number and of a string are written alike; only the top-level `signature` must be a
 *   string, and one that reads as a number literal is left to the reader). The rewriting cannot
 *   make an invalid body valid: a number in a key's place is left alone, and a quote that
 *   opens no string stops it;
 * - repeated keys (`json_decode` keeps the last): the keys and strings counted in the bytes
 *   (quotes, when no backslash escapes one; else colons outside strings) against those
 *   decoded;
 * - hash flooding: PHP hashes keys with an unkeyed function, so thousands of chosen
 *   colliding keys in one object would make `json_decode` quadratic; the bytes' structure is
 *   read first (strings and scalars stripped, innermost containers removed level by level,
 *   at most {@see Canonical::MAX_DEPTH} times) and a body with an object of more than
 *   {@see MAX_MEMBERS} members is left to {@see CanonicalReader}.
 *
 * A short body with no fraction and no `-0` in its bytes is decoded as it is (its numbers
 * are integers, which PHP writes back as their literal; any other reads as a float, and the
 * body is read again rewritten). Objects are decoded as PHP arrays (cheaper than `stdClass`)
 * unless one could pass for a list (an empty object, or one with the key "0", which then
 * reads as fewer keys than the bytes hold): the body is then read again with objects as
 * `stdClass`. The pairs of a short body are listed and sorted once;
 * a longer body's are written already sorted: each object's pairs sorted on their own (an
 * object's members all start with its path, so sorting each object sorts the whole), the
 * order of an object of scalars remembered by its keys (the rows of a page share theirs),
 * array elements in the order of `0]`, `1]`, `10]`... (the order of their pair strings),
 * and the `senderKey=` pair placed among the top-level ones. Sorting many short lists of
 * pairs costs less than sorting one long one.
 *
 * It vouches only for bodies the reader would accept with the same pairs, and returns null
 * (the caller then runs {@see CanonicalReader}, which says exactly why a body is refused)
 * whenever anything is refused or out of its reach: a syntax error, a rule, a duplicate key,
 * a null array element, depth, a top-level `signature` that is not a string, a path long
 * enough that the expansion limit could be reached (see {@see object()}), a regular
 * expression error. Every step is linear in the body.
 *
 * @internal use {@see Canonical::parse()}
 */
final class FastReader
{
    use ShortListing;

    /** An object with more members than this is read by {@see CanonicalReader} (hash flooding). */
    public const MAX_MEMBERS = 64;
    /** In {@see read()}'s answer: a short body's pairs sorted with the key's own pair among them. */
    public const KEYED = -2;

    /** A JSON string. */
    private const STRING = Structure::STRING;
    /**
     * Number literals outside strings, not in a key's place. A quote that opens no string
     * stops the rewriting there (`(*COMMIT)`): past it, this pattern and JSON could disagree
     * on what is inside a string, and the body is invalid anyway.
     */
    private const NUMBER = '/' . self::STRING . '(*SKIP)(*F)|"(*COMMIT)(*F)|-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+(?![ \t\r\n]*+:)/';
    /**
     * A fraction (`.` then digits then what ends a number) or `-0` (which json_decode reads as
     * the integer 0) anywhere, in strings too: a short body without one is decoded as it is.
     */
    private const FRACTION_OR_MINUS_ZERO = '/\.[0-9]++[,}\]\s]|-0[,}\]\s]/';
    /** An empty object (or what reads like one): objects read as stdClass. */
    private const EMPTY_OBJECT = '/\{[ \t\r\n]*+\}/';
    /** A key "0" (or what reads like one): objects read as stdClass. */
    private const KEY_ZERO = '/"0"[ \t\r\n]*+:/';
    /** A text that is a JSON number literal. */
    private const WHOLE_NUMBER = '/\A-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+\z/';
    /** Colons outside strings: one per key. */
    private const COLON = '/' . self::STRING . '(*SKIP)(*F)|:/';
    /** The `senderKey` pair, without the key. */
    private const KEY_PAIR = Canonical::SENDER_KEY . '=';
    /** The bytes R1 refuses in a key. */
    private const SPECIAL = '&=.[]';

    /** A body of at most this many bytes has its pairs listed and sorted once. */
    private const SHORT = 8192;
    /**
     * Keys remembered as clean (R1), at most this many, of at most 64 bytes each (a bounded
     * table cannot be flooded).
     */
    private const CLEAN_KEYS = 1024;
    /** Orders of keys remembered, at most this many ... */
    private const SHAPES = 64;
    /** ... each for keys of at most this many bytes in all. */
    private const MAX_SHAPE = 2048;

    /** How many times {@see read()} rewrote a body's numbers, for the tests. */
    public static int $rewrites = 0;

    /** @var array<string, list<array-key>|false> key orders by the keys' sequence ({@see shape()}) */
    private static array $shapes = [];

    /**
     * @var array<array-key, true> keys found clean, kept from one body to the next (the
     *     keys of an API are few); at most CLEAN_KEYS of them
     */
    private static array $cleanKeys = [];
    /** Object members read (a `null` one and `signature` included): one colon each. */
    private int $members = 0;
    /** Members and array elements read. */
    private int $items = 0;
    /** Members and elements that are not strings (numbers are strings here). */
    private int $notStrings = 0;
    private bool $nulls = false;
    /** Whether a float was read in a body decoded as it is (it must be read again, rewritten). */
    private bool $floats = false;
    /** Whether the reading was declined. */
    private bool $declined = false;
    /** Whether an empty array was read (objects read as arrays: it may have been `{}`). */
    private bool $empties = false;
    private ?string $signature = null;
    private bool $hasSignatureKey = false;
    /** The pairs before the `senderKey` pair, sorted and joined. */
    private string $head = '';
    /** The pairs after it. */
    private string $tail = '';
    /** @var list<string>|null a short body's pairs, to sort once the tree is freed */
    private ?array $listed = null;

    /**
     * @param bool $r3 whether a string value may hold `&` (else rule R3 cannot apply)
     * @param bool $assoc whether objects were decoded as PHP arrays (else as `stdClass`)
     * @param bool $short whether the body is short: its pairs are listed and sorted once
     * @param bool $raw whether the body was decoded as it is (integers as PHP integers, a float
     *     declines), not with its numbers rewritten as strings
     * @param string $keyPair the `senderKey` pair listed with a short body's pairs
     * @param bool $marked whether the numbers rewritten start with a NUL
     */
    private function __construct(
        private readonly bool $r3,
        private readonly bool $assoc,
        private readonly bool $short,
        private readonly bool $raw,
        #[\SensitiveParameter] private readonly string $keyPair,
        private readonly bool $marked = false,
    ) {
    }

    /**
     * Reads a body (at most {@see Canonical::MAX_BODY} bytes; json_decode refuses invalid
     * UTF-8 as strictly as the reader) with the re-cut rules and `null` members accepted.
     *
     * @param string $body the bytes
     * @param string|null $key the key, to list a short body's pairs with the key's own pair
     *     (its place is the same as `senderKey=`'s: no other pair starts with `senderKey=`)
     * @param bool $lossless build the lossless tree from the same decoding (numbers
     *     rewritten as strings of a NUL then their literal, the NULs dropped from the pairs)
     * @return array{list<string>, int, ?string, bool, list<string>, ?JsonObject}|null the
     *     pairs sorted: a short body's, `senderKey=` among them at the offset that follows (or,
     *     with `$key`, the key's pair, and {@see KEYED}), or a long body's joined with `&`,
     *     those before the `senderKey` pair and those after it (-1); the signature, whether
     *     there is a `signature` member, the null members' paths in document order; with
     *     `$lossless`, the lossless tree from the same reading (null when it cannot be built
     *     so: a body with a `\u0000` of its own), else null; null when the reader must decide
     */
    public static function read(
        #[\SensitiveParameter] string $body,
        #[\SensitiveParameter] ?string $key = null,
        bool $lossless = false,
    ): ?array {
        $escapes = strpos($body, '\\') !== false;
        // At most that many members in any object: no flooding to fear.
        if (substr_count($body, ':') > self::MAX_MEMBERS && !Structure::fits($body, $escapes)) {
            return null;
        }
        $short = strlen($body) <= self::SHORT;
        // A short body whose bytes show no fraction and no `-0` is decoded as it is: its
        // numbers are integers, whose text PHP writes back as it was (one that is not, an
        // exponent, an integer beyond 64 bits, is read as a float, and the body read again
        // with its numbers rewritten).
        $raw = $short && preg_match(self::FRACTION_OR_MINUS_ZERO, $body) === 0;
        $r3 = strpos($body, '&') !== false || ($escapes && strpos($body, '\\u0026') !== false);
        // Objects as PHP arrays (cheaper than stdClass) unless one could be taken for a list:
        // an empty one (`{}`; written with whitespace inside, it is seen once read), or one
        // with the key "0" (a list's first key: it then reads as fewer keys than the bytes
        // hold), and the body is read again.
        $assoc = strpos($body, '{}') === false;
        // For the lossless tree, numbers are marked (a NUL first), unless the body has a NUL of
        // its own.
        $marked = $lossless && strpos($body, '\\u0000') === false;
        // json_decode's tree of a long body holds many arrays and no cycle: the cycle
        // collector need not walk it.
        $collecting = strlen($body) > 65536 && gc_enabled();
        if ($collecting) {
            gc_disable();
        }
        try {
            for (;;) {
                $json = $raw ? $body : preg_replace(self::NUMBER, $marked ? '"\\u0000$0"' : '"$0"', $body);
                self::$rewrites += $raw ? 0 : 1;
                if (!is_string($json)) {
                    return null;
                }
                // Without a backslash no quote is escaped: every key and every string (numbers
                // rewritten are strings too) is two quotes, and a key json_decode kept once is
                // missing. Nor is anything written as `\u....`.
                $quotes = $escapes ? -1 : substr_count($json, '"');
                $tree = json_decode($json, $assoc, Canonical::MAX_DEPTH + 1);
                unset($json);
                $reader = self::traverse($tree, $assoc, $r3, $short, $raw, $key === null ? self::KEY_PAIR : self::KEY_PAIR . $key, $marked);
                if ($reader !== null && $reader->floats) {
                    $raw = false;
                    continue;
                }
                if ($assoc && ($tree === [] || ($reader !== null && $reader->empties && preg_match(self::EMPTY_OBJECT, $body) !== 0))) {
                    $assoc = false;
                    continue;
                }
                if ($reader !== null && !$reader->declined) {
                    $keysAndStrings = $reader->members + $reader->items - $reader->notStrings;
                    if ($quotes >= 0 ? $quotes === 2 * $keysAndStrings : $reader->members === preg_match_all(self::COLON, $body)) {
                        break;
                    }
                }
                // Declined, or fewer keys than the bytes hold (a repeated key): unless an object
                // with the key "0" was read as a list.
                if ($assoc && (preg_match(self::KEY_ZERO, $body) !== 0 || ($escapes && strpos($body, '\\u0030') !== false))) {
                    $assoc = false;
                    continue;
                }
                return null;
            }
            $nullPaths = [];
            if ($reader->nulls) {
                TreeWalk::nullPaths($tree, '', $reader->assoc, $nullPaths);
            }
            $value = $lossless && ($raw || $marked) ? TreeWalk::losslessOf($tree, $assoc, $marked) : null;
            unset($tree);
            if ($reader->listed !== null) {
                $pairs = $reader->listed;
                $reader->listed = null;
                sort($pairs, SORT_STRING);
                $at = $key === null ? (int) array_search(self::KEY_PAIR, $pairs, true) : self::KEYED;
            } else {
                $pairs = [$reader->head, $reader->tail];
                $at = -1;
            }
            if ($marked && !$raw) {
                // The numbers' marks: no other NUL is in the pairs (none in the body), and the
                // values do not decide the order (no two pairs have the same path).
                $pairs = str_replace("\0", '', $pairs);
            }
            return [$pairs, $at, $reader->signature, $reader->hasSignatureKey, $nullPaths, $value];
        } finally {
            if ($collecting) {
                gc_enable();
            }
        }
    }

    /**
     * The pairs of a decoded body (declined, or with floats seen in a body decoded as it is,
     * when the reading must be done again or left to the reader), or null when the top-level
     * value is not an object.
     *
     * @param mixed $tree what json_decode gave
     */
    private static function traverse(
        mixed $tree,
        bool $assoc,
        bool $r3,
        bool $short,
        bool $raw,
        #[\SensitiveParameter] string $keyPair,
        bool $marked = false,
    ): ?self
    {
        // (A top-level list decodes to a list: refused either way.)
        if ($assoc ? !is_array($tree) || array_is_list($tree) : !$tree instanceof \stdClass) {
            return null;
        }
        $reader = new self($r3, $assoc, $short, $raw, $keyPair, $marked);
        try {
            $reader->top($tree);
        } catch (FastReaderDeclined) {
            $reader->declined = true;
        }
        return $reader;
    }

    /**
     * The lossless tree ({@see JsonObject}, numbers as {@see JsonNumber}) of a body this
     * reading accepted, through json_decode: every number rewritten as a string of a NUL then
     * its literal (a body with a `\u0000` of its own is left to the reader), objects as
     * `stdClass` (an empty object, a key "0" stay what they are).
     *
     * @param string $body a body {@see read()} accepted
     * @return JsonObject|null the top-level object, or null when the reader must build it
     */
    public static function lossless(#[\SensitiveParameter] string $body): ?JsonObject
    {
        if (strpos($body, '\\u0000') !== false) {
            return null;
        }
        $numbered = preg_replace(self::NUMBER, '"\\u0000$0"', $body);
        self::$rewrites++;
        $tree = is_string($numbered) ? json_decode($numbered, false, Canonical::MAX_DEPTH + 1) : null;
        return $tree instanceof \stdClass ? TreeWalk::lossless($tree) : null;
    }

    /** The top-level object: its pairs around the place of the `senderKey` pair. */
    /** @param \stdClass|array<array-key, mixed> $tree */
    private function top(\stdClass|array $tree): void
    {
        $members = (array) $tree;
        if (array_key_exists('signature', $members)) {
            $signature = $members['signature'];
            unset($members['signature']);
            // A number reads as a string when rewritten: the reader says whether it was one.
            if ($signature !== null && (!is_string($signature) || (!$this->raw && ($this->marked
                ? str_starts_with($signature, "\0")
                : is_numeric($signature) && preg_match(self::WHOLE_NUMBER, $signature) !== 0)))) {
                throw new FastReaderDeclined();
            }
            $this->members++;
            $this->items++;
            if ($signature === null) {
                $this->notStrings++;
            }
            $this->signature = $signature;
            $this->hasSignatureKey = true;
        }
        if (array_key_exists(Canonical::SENDER_KEY, $members)) {
            throw new FastReaderDeclined(); // R4
        }
        if ($this->short) {
            // A short body: its pairs listed, then sorted once (fewer calls than sorting each
            // object), once the tree is freed.
            $pairs = [$this->keyPair];
            $this->listObject($members, '', $pairs);
            $this->listed = $pairs;
        } else {
            $this->object($members, '', true);
        }
    }

    /**
     * The pairs of a non-empty object at `$path.` (or of the top-level object, with the
     * `senderKey=` pair), sorted and joined. A member's string is its pair, or its
     * container's pairs already sorted and joined: sorting these strings sorts the pairs, as
     * the pairs of a member all start with its path and the byte after it (`=`, `.` or `[`,
     * which no key holds, rule R1), so two members' strings compare as any two of their pairs
     * do, decided within those bytes.
     *
     * A path of at most 126 bytes keeps every pair within the expansion limit, whatever the
     * object holds: a member's pair is `path.key=value` (the path's length + 2 + key + value
     * bytes) and reads at least key + value + 4 bytes of its own (`,"key":value`), so within
     * 32 times its own bytes, and the sum of the pairs within 32 times the bytes read, at every
     * point. Longer paths are left to the reader.
     *
     * @param array<array-key, mixed> $members
     */
    private function object(array $members, string $pathDot, bool $top = false): string
    {
        if (strlen($pathDot) > 127) {
            throw new FastReaderDeclined();
        }
        $count = count($members);
        if (!$top && $count > 1) {
            // The rows of a page share their keys: an object of strings is written in the order
            // its keys were found to sort in before, without sorting.
            $shape = implode("\0", array_keys($members));
            $order = self::$shapes[$shape] ?? self::shape($members, $shape);
            if ($order !== false) {
                $pairs = [];
                foreach ($order as $key) {
                    $value = $members[$key] ?? null;
                    if (!is_string($value)) {
                        $pairs = null;
                        break;
                    }
                    $pairs[] = $pathDot . $key . '=' . $value;
                }
                if ($pairs !== null) {
                    if ($this->r3) {
                        self::checkValues($members);
                    }
                    $this->members += $count;
                    $this->items += $count;
                    return implode('&', $pairs);
                }
            }
        }
        $this->members += $count;
        $this->items += $count;
        $pairs = [];
        foreach ($members as $key => $value) {
            if (!isset(self::$cleanKeys[$key])) {
                self::checkKey($key);
            }
            if (is_string($value)) {
                $pairs[] = $pathDot . $key . '=' . $value;
                continue;
            }
            $this->notStrings++;
            if (is_array($value)) {
                if ($this->assoc && !array_is_list($value)) {
                    $text = $this->object($value, $pathDot . $key . '.');
                } elseif ($value === []) {
                    $this->empties = true;
                    $text = $pathDot . $key . '=[]';
                } else {
                    $text = $this->array($value, $pathDot . $key);
                }
            } elseif ($value instanceof \stdClass) {
                $inner = (array) $value;
                $text = $inner === [] ? $pathDot . $key . '={}' : $this->object($inner, $pathDot . $key . '.');
            } elseif (is_bool($value)) {
                $text = $pathDot . $key . ($value ? '=true' : '=false');
            } elseif ($value === null) {
                $this->nulls = true;
                continue;
            } else {
                throw new FastReaderDeclined();
            }
            // A container whose members are all null has no pair.
            if ($text !== '') {
                $pairs[] = $text;
            }
        }
        if ($this->r3) {
            self::checkValues($members);
        }
        if ($top) {
            // The place of the `senderKey` pair: it sorts as `senderKey=` does (no other
            // top-level key is `senderKey`, rule R4, so the comparison ends within those bytes).
            $pairs[] = self::KEY_PAIR;
            sort($pairs, SORT_STRING);
            [$this->head, $this->tail] = Flattened::aroundKey($pairs);
            return '';
        }
        sort($pairs, SORT_STRING);
        return implode('&', $pairs);
    }

    /**
     * Rule R3 for an object's string values.
     *
     * @param array<array-key, mixed> $members
     */
    private static function checkValues(array $members): void
    {
        foreach ($members as $value) {
            if (is_string($value) && strpos($value, '&') !== false && Canonical::readsAsPair($value)) {
                throw new FastReaderDeclined(); // R3
            }
        }
    }

    /**
     * The order of an object's keys when all its members are scalars (by key then `=`), its
     * keys checked (rule R1), remembered by the keys' sequence; false for an object that held
     * a container or a null when first seen (it is sorted each time).
     *
     * @param array<array-key, mixed> $members
     * @return list<array-key>|false
     */
    private static function shape(array $members, string $shape): array|false
    {
        $steps = [];
        $scalars = true;
        foreach ($members as $key => $value) {
            if (!isset(self::$cleanKeys[$key])) {
                self::checkKey($key);
            }
            $steps[$key . '='] = $key;
            $scalars = $scalars && (is_string($value) || is_bool($value));
        }
        $order = false;
        if ($scalars) {
            ksort($steps, SORT_STRING);
            $order = array_values($steps);
        }
        if (strlen($shape) <= self::MAX_SHAPE) {
            if (count(self::$shapes) >= self::SHAPES) {
                self::$shapes = [];
            }
            self::$shapes[$shape] = $order;
        }
        return $order;
    }

    /** Rule R1 for one key, remembered when clean. */
    private static function checkKey(int|string $key): void
    {
        $text = (string) $key;
        if ($text === '' || strcspn($text, self::SPECIAL) !== strlen($text)) {
            throw new FastReaderDeclined(); // R1
        }
        if (strlen($text) <= 64 && count(self::$cleanKeys) < self::CLEAN_KEYS) {
            self::$cleanKeys[$key] = true;
        }
    }

    /**
     * An array's pairs, in the order of their pair strings, joined. An element's pair is
     * `path[i]=value` (path + digits + 3 + value bytes) and reads at least value + 1 bytes
     * (`,value`, a value at least one byte): with a path of at most 50 bytes and at most 10
     * digits, within 32 times its own bytes.
     *
     * @param list<mixed> $elements
     */
    private function array(array $elements, string $path): string
    {
        if (strlen($path) > 50) {
            throw new FastReaderDeclined();
        }
        $this->items += count($elements);
        $parts = [];
        // Up to 10 elements, `0]` to `9]` are in their own order.
        $count = count($elements);
        foreach ($count <= 10 ? array_keys($elements) : TreeWalk::order($count) as $i) {
            $value = $elements[$i];
            $at = $path . '[' . $i . ']';
            if (is_string($value)) {
                if ($this->r3 && strpos($value, '&') !== false && Canonical::readsAsPair($value)) {
                    throw new FastReaderDeclined(); // R3
                }
                $parts[] = $at . '=' . $value;
                continue;
            }
            $this->notStrings++;
            if (is_array($value)) {
                if ($this->assoc && !array_is_list($value)) {
                    $text = $this->object($value, $at . '.');
                } elseif ($value === []) {
                    $this->empties = true;
                    $text = $at . '=[]';
                } else {
                    $text = $this->array($value, $at);
                }
            } elseif ($value instanceof \stdClass) {
                $inner = (array) $value;
                $text = $inner === [] ? $at . '={}' : $this->object($inner, $at . '.');
            } elseif (is_bool($value)) {
                $text = $at . ($value ? '=true' : '=false');
            } else {
                throw new FastReaderDeclined(); // a null element (R2)
            }
            if ($text !== '') {
                $parts[] = $text;
            }
        }
        return implode('&', $parts);
    }
}
