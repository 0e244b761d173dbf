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
 *   string, and one that starts like a number is left to the reader). The rewriting cannot
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
 * The pairs are then written already sorted: members of each object sorted by key plus the
 * byte that follows the key in every pair of that member (`=` for a scalar or an empty
 * container, `.` for an object, `[` for an array; keys hold none of these, rule R1), array
 * elements in the order of `0]`, `1]`, `10]`..., which is the order of the pair strings
 * themselves, without sorting the pairs.
 *
 * It vouches only for bodies the reader would accept with the same pairs, and returns null
 * (the caller then runs {@see CanonicalReader}, which says exactly why a body is refused)
 * whenever anything is refused or out of its reach: a syntax error, a rule, a duplicate key,
 * a null array element, depth, a top-level `signature` that is not a string, a path long
 * enough that the expansion limit could be reached (see {@see objectPathFits()}), a regular
 * expression error. Every step is linear in the body.
 *
 * @internal use {@see Canonical::parse()}
 */
final class FastReader
{
    /** An object with more members than this is read by {@see CanonicalReader} (hash flooding). */
    public const MAX_MEMBERS = 64;

    /** A JSON string, unrolled and possessive (no backtracking into it). */
    private const STRING = '"[^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+"';
    /**
     * Number literals outside strings, not in a key's place. A quote that opens no string
     * stops the rewriting there (`(*COMMIT)`): past it, this pattern and JSON could disagree
     * on what is inside a string, and the body is invalid anyway.
     */
    private const NUMBER = '/' . self::STRING . '(*SKIP)(*F)|"(*COMMIT)(*F)|-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+(?![ \t\r\n]*+:)/';
    /** An empty object, or a key "0" (or what reads like one): objects read as stdClass. */
    private const OBJECT_LIKE_LIST = '/\{[ \t\r\n]*+\}|"0"[ \t\r\n]*+:/';
    /** A text that is a JSON number literal. */
    private const WHOLE_NUMBER = '/\A-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][-+]?+[0-9]++)?+\z/';
    /** Colons outside strings: one per key. */
    private const COLON = '/' . self::STRING . '(*SKIP)(*F)|:/';
    /** What is not structure: strings, and every byte but `{ } [ ] :` and a stray quote. */
    private const NOT_STRUCTURE = '/(?:' . self::STRING . '|[^"{}\[\]:]++)++/';
    /** An innermost container (nothing nested in it). */
    private const INNERMOST = '/\{[^{}\[\]]*+\}|\[[^{}\[\]]*+\]/';
    /** An innermost object with more than MAX_MEMBERS colons. */
    private const CROWDED = '/\{(?:[^:{}\[\]]*+:){65}/';
    /** The bytes R1 refuses in a key. */
    private const SPECIAL = '&=.[]';

    /** Keys remembered as clean (R1), at most this many (a bounded table cannot be flooded). */
    private const CLEAN_KEYS = 1024;

    /** How many times the structure was stripped one level, for the tests that check linearity. */
    public static int $structurePasses = 0;

    /** @var array<int, list<int>> array element orders by length */
    private static array $orders = [];

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
    private ?string $signature = null;
    private bool $hasSignatureKey = false;
    private string $head = '';
    private string $tail = '';

    /**
     * @param bool $r3 whether a string value may hold `&` (else rule R3 cannot apply)
     * @param bool $assoc whether objects were decoded as PHP arrays (else as `stdClass`)
     */
    private function __construct(private readonly bool $r3, private readonly bool $assoc)
    {
    }

    /**
     * Reads a body (valid UTF-8, at most {@see Canonical::MAX_BODY} bytes) with the re-cut
     * rules and `null` members accepted.
     *
     * @param string $body the bytes
     * @return array{string, string, ?string, bool, list<string>}|null the pairs before and after
     *     `senderKey` (joined with `&`), the signature, whether there is a `signature` member,
     *     the null members' paths in document order; null when the reader must decide
     */
    public static function read(#[\SensitiveParameter] string $body): ?array
    {
        // At most that many members in any object: no flooding to fear.
        if (substr_count($body, ':') > self::MAX_MEMBERS && !self::structureFits($body)) {
            return null;
        }
        $numbered = preg_replace(self::NUMBER, '"$0"', $body);
        if (!is_string($numbered)) {
            return null;
        }
        // json_decode's tree holds no cycle: the cycle collector need not walk it.
        $collecting = gc_enabled();
        gc_disable();
        try {
            // Objects as PHP arrays (cheaper than stdClass) when no object can be taken for a
            // list: no empty object, and no key "0" (a list's first key).
            // (A top-level list decodes to a list: refused below either way.)
            $assoc = preg_match(self::OBJECT_LIKE_LIST, $body) === 0 && strpos($body, '\\u0030') === false;
            $tree = json_decode($numbered, $assoc, Canonical::MAX_DEPTH + 1);
            if ($assoc ? !is_array($tree) || array_is_list($tree) : !$tree instanceof \stdClass) {
                return null;
            }
            // Without a backslash no quote is escaped: every key and every string (numbers
            // now strings too) is two quotes, and a key json_decode kept once is missing.
            $quotes = strpos($body, '\\') === false ? substr_count($numbered, '"') : -1;
            unset($numbered);
            $reader = new self(strpos($body, '&') !== false || strpos($body, '\\u0026') !== false, $assoc);
            try {
                $reader->top($tree);
            } catch (FastReaderDeclined) {
                return null;
            }
            $keysAndStrings = $reader->members + $reader->items - $reader->notStrings;
            if ($quotes >= 0 ? $quotes !== 2 * $keysAndStrings : $reader->members !== preg_match_all(self::COLON, $body)) {
                return null; // a repeated key
            }
            $nullPaths = [];
            if ($reader->nulls) {
                self::nullPaths($tree, '', $assoc, $nullPaths);
            }
            return [$reader->head, $reader->tail, $reader->signature, $reader->hasSignatureKey, $nullPaths];
        } finally {
            if ($collecting) {
                gc_enable();
            }
        }
    }

    /**
     * Whether no object has more than MAX_MEMBERS members and the nesting is at most
     * MAX_DEPTH (else, or when the structure is unbalanced, the reader decides).
     */
    private static function structureFits(string $body): bool
    {
        $shape = preg_replace(self::NOT_STRUCTURE, '', $body);
        if (!is_string($shape)) {
            return false;
        }
        for ($level = 0; $shape !== ''; $level++) {
            self::$structurePasses++;
            if ($level >= Canonical::MAX_DEPTH || preg_match(self::CROWDED, $shape) !== 0) {
                return false;
            }
            $inner = preg_replace(self::INNERMOST, '', $shape);
            if (!is_string($inner) || $inner === $shape) {
                return false;
            }
            $shape = $inner;
        }
        return true;
    }

    /** The top-level object: its pairs around the place of the `senderKey` pair. */
    /** @param \stdClass|array<array-key, mixed> $tree */
    private function top(\stdClass|array $tree): void
    {
        $members = (array) $tree;
        if (array_key_exists('signature', $members)) {
            $signature = $members['signature'];
            unset($members['signature']);
            // A number reads as a string here: the reader says whether it was one.
            if ($signature !== null && (!is_string($signature) || preg_match(self::WHOLE_NUMBER, $signature) !== 0)) {
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
        $pairs = $this->pairs($members, '');
        // Where the key's pair goes: it sorts as `senderKey=` does (no other top-level key is
        // `senderKey`, rule R4, so the comparison ends within those bytes).
        $pairs[] = Canonical::SENDER_KEY . '=';
        sort($pairs, SORT_STRING);
        $at = (int) array_search(Canonical::SENDER_KEY . '=', $pairs, true);
        $this->head = implode('&', array_slice($pairs, 0, $at));
        $this->tail = implode('&', array_slice($pairs, $at + 1));
    }

    /**
     * The pairs of a non-empty object at `$path.`, sorted and joined.
     *
     * @param array<array-key, mixed> $members
     */
    private function object(array $members, string $pathDot): string
    {
        if (!self::objectPathFits($pathDot)) {
            throw new FastReaderDeclined();
        }
        $pairs = $this->pairs($members, $pathDot);
        sort($pairs, SORT_STRING);
        return implode('&', $pairs);
    }

    /**
     * An object's pairs, unsorted: a scalar's pair, or a container's pairs already sorted and
     * joined. Sorting these strings sorts the pairs: the pairs of a member all start with
     * its path and the byte after it (`=`, `.` or `[`, which no key holds, rule R1), so two
     * members' strings compare as any two of their pairs do, decided within those bytes.
     *
     * @param array<array-key, mixed> $members
     * @return list<string>
     */
    private function pairs(array $members, string $pathDot): array
    {
        $count = count($members);
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
                } else {
                    $text = $value === [] ? $pathDot . $key . '=[]' : $this->array($value, $pathDot . $key);
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
            foreach ($members as $value) {
                if (is_string($value) && strpos($value, '&') !== false && Canonical::readsAsPair($value)) {
                    throw new FastReaderDeclined(); // R3
                }
            }
        }
        return $pairs;
    }

    /** Rule R1 for one key, remembered when clean. */
    private static function checkKey(int|string $key): void
    {
        $text = (string) $key;
        if ($text === '' || strcspn($text, self::SPECIAL) !== strlen($text)) {
            throw new FastReaderDeclined(); // R1
        }
        if (count(self::$cleanKeys) < self::CLEAN_KEYS) {
            self::$cleanKeys[$key] = true;
        }
    }

    /**
     * Whether every pair of the object at `$path.` keeps within the expansion limit, whatever
     * it holds: a member's pair is `path.key=value` (the path's length + 2 + key + value
     * bytes) and reads at least key + value + 4 bytes of its own (`,"key":value`), so a path
     * of at most 126 bytes keeps every pair within 32 times its own bytes, and the sum of the
     * pairs within 32 times the bytes read, at every point.
     */
    private static function objectPathFits(string $pathDot): bool
    {
        return strlen($pathDot) <= 127;
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
        foreach (self::order(count($elements)) as $i) {
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
                } else {
                    $text = $value === [] ? $at . '=[]' : $this->array($value, $at);
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

    /**
     * The indexes 0 to n-1 in the order of the strings `0]`, `1]`, ..., `n-1]` (`]` sorts
     * after every digit, so `10]` comes before `1]`).
     *
     * @return list<int>
     */
    private static function order(int $n): array
    {
        if (isset(self::$orders[$n])) {
            return self::$orders[$n];
        }
        $texts = [];
        for ($i = 0; $i < $n; $i++) {
            $texts[] = $i . ']';
        }
        sort($texts, SORT_STRING);
        $order = [];
        foreach ($texts as $text) {
            $order[] = (int) $text;
        }
        if ($n <= 100000) {
            if (count(self::$orders) >= 32) {
                self::$orders = [];
            }
            self::$orders[$n] = $order;
        }
        return $order;
    }

    /**
     * The paths of the null members, in document order.
     *
     * @param list<string> $paths
     */
    private static function nullPaths(mixed $value, string $path, bool $assoc, array &$paths): void
    {
        if ($value instanceof \stdClass || ($assoc && is_array($value) && !array_is_list($value))) {
            foreach ((array) $value as $key => $member) {
                $at = $path === '' ? (string) $key : $path . '.' . $key;
                if ($member === null) {
                    if ($path !== '' || $key !== 'signature') {
                        $paths[] = $at;
                    }
                } else {
                    self::nullPaths($member, $at, $assoc, $paths);
                }
            }
        } elseif (is_array($value)) {
            foreach ($value as $i => $element) {
                self::nullPaths($element, $path . '[' . $i . ']', $assoc, $paths);
            }
        }
    }
}
