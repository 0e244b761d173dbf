<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The structure of a body's bytes, read before json_decode sees them ({@see FastReader}):
 * PHP hashes keys with an unkeyed function, so thousands of chosen colliding keys in one
 * object would make `json_decode` quadratic. Strings and scalars are stripped, then the
 * innermost containers removed level by level, at most {@see Canonical::MAX_DEPTH} times;
 * a body with an object of more than {@see FastReader::MAX_MEMBERS} members is left to
 * {@see CanonicalReader}. Every pass is linear in the body.
 *
 * @internal
 */
final class Structure
{
    /** A JSON string, unrolled and possessive (no backtracking into it). */
    public const STRING = '"[^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+"';
    /** What is not structure: strings, and every byte but `{ } [ ] :` and a stray quote. */
    private const NOT_STRUCTURE = '/(?:' . self::STRING . '|[^"{}\[\]:]++)++/';
    /** The same, in a body without a backslash (no escape in its strings). */
    private const NOT_STRUCTURE_PLAIN = '/(?:"[^"]*+"|[^"{}\[\]:]++)++/';
    /** An innermost container (nothing nested in it). */
    private const INNERMOST = '/\{[^{}\[\]]*+\}|\[[^{}\[\]]*+\]/';
    /** An innermost object with more than MAX_MEMBERS colons. */
    private const CROWDED = '/\{(?:[^:{}\[\]]*+:){' . (FastReader::MAX_MEMBERS + 1) . '}/';

    /** How many times the structure was stripped one level, for the tests that check linearity. */
    public static int $passes = 0;

    private function __construct()
    {
    }

    /**
     * Whether no object has more than {@see FastReader::MAX_MEMBERS} members and the nesting
     * is at most {@see Canonical::MAX_DEPTH} (else, or when the structure is unbalanced, the
     * reader decides).
     *
     * @param string $body the bytes
     * @param bool $escapes whether the body holds a backslash
     * @return bool true when json_decode may read it
     */
    public static function fits(#[\SensitiveParameter] string $body, bool $escapes = true): bool
    {
        $shape = preg_replace($escapes ? self::NOT_STRUCTURE : self::NOT_STRUCTURE_PLAIN, '', $body);
        if (!is_string($shape)) {
            return false;
        }
        for ($level = 0; $shape !== ''; $level++) {
            self::$passes++;
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
}
