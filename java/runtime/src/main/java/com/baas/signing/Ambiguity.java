package com.baas.signing;

/**
 * The re-cut rule a body breaks. The canonical string joins {@code path=value} pairs with
 * {@code &} and escapes nothing, so a body breaking one of these rules could share its
 * canonical string (hence its signature) with another body. Every signer refuses to sign
 * such a body, and every verifier refuses it whatever its signature.
 */
public enum Ambiguity {
    /** R1: an object key (at any depth) is empty or holds {@code &}, {@code =}, {@code .}, {@code [} or {@code ]}. */
    KEY("R1", "an object key is empty or contains `&`, `=`, `.`, `[` or `]`, so the signed "
            + "text could be read as other keys or array elements"),
    /**
     * R2: a {@code null} array element (nulls are left out of the canonical string, so one
     * could be added); for a signer, any {@code null}.
     */
    NULL("R2", "a `null` is left out of the signed text, so it could be added or removed "
            + "without changing the signature; leave the member out instead"),
    /** R3: a string value holds {@code &} then text that reads as a pair ({@code path=}). */
    VALUE_READS_AS_PAIR("R3", "a text value contains `&` followed by something that reads "
            + "as `name=`, so the signed text could be read as members that were never sent"),
    /** R4: a top-level {@code senderKey} member (the signer adds that pair itself). */
    SENDER_KEY("R4", "a top-level `senderKey` member is refused: the signer adds the "
            + "`senderKey` pair (the private key) itself, and the two would be confused");

    private final String id;
    private final String words;

    Ambiguity(String id, String words) {
        this.id = id;
        this.words = words;
    }

    /**
     * The rule's name.
     *
     * @return {@code R1} to {@code R4}
     */
    public String id() {
        return id;
    }

    /**
     * The rule and its reason, in words.
     *
     * @return a sentence
     */
    public String describe() {
        return words;
    }
}
