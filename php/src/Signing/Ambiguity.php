<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The re-cut rule a body breaks.
 *
 * The canonical string joins `path=value` pairs with `&` and escapes nothing, so a body
 * breaking one of these rules could share its canonical string (hence its signature) with
 * another body. Every signer refuses to sign such a body, and every verifier refuses it
 * whatever its signature. The case values are the rules' names in
 * `tests/data/signing-vectors.json`.
 */
enum Ambiguity: string
{
    /** R1: an object key (at any depth) is empty or holds `&`, `=`, `.`, `[` or `]`. */
    case KEY = 'R1';
    /**
     * R2: a `null` array element (nulls are left out of the canonical string, and one moves
     * the indexes after it). A `null` object member is skipped, by signers and verifiers.
     */
    case NULL = 'R2';
    /** R3: a string value holds `&` then text that reads as a pair (`path=`). */
    case VALUE_READS_AS_PAIR = 'R3';
    /** R4: a top-level `senderKey` member (the signer adds that pair itself). */
    case SENDER_KEY = 'R4';

    /**
     * The rule's name.
     *
     * @return string `R1` to `R4`
     */
    public function id(): string
    {
        return $this->value;
    }

    /**
     * The rule and its reason, in words.
     *
     * @return string a sentence
     */
    public function describe(): string
    {
        return match ($this) {
            self::KEY => 'an object key is empty or contains `&`, `=`, `.`, `[` or `]`, so the signed '
                . 'text could be read as other keys or array elements',
            self::NULL => 'a `null` array element is left out of the signed text and moves the indexes of '
                . 'the elements after it, so the signature could hold over another array; leave it out of the array',
            self::VALUE_READS_AS_PAIR => 'a text value contains `&` followed by something that reads '
                . 'as `name=`, so the signed text could be read as members that were never sent',
            self::SENDER_KEY => 'a top-level `senderKey` member is refused: the signer adds the '
                . '`senderKey` pair (the private key) itself, and the two would be confused',
        };
    }
}
