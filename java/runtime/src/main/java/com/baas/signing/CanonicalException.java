package com.baas.signing;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Why a body has no canonical string, or is refused by a re-cut rule ({@link Ambiguity}).
 * {@link #kind()} says which; {@link #offset()}, {@link #path()} and {@link #rule()} say where
 * and which rule.
 */
public final class CanonicalException extends SigningException {
    private static final long serialVersionUID = 1L;

    /** The kinds of refusal. */
    public enum Kind {
        /** The body is not valid UTF-8. */
        INVALID_UTF8,
        /** The body is not JSON. */
        SYNTAX,
        /** The top-level value is not an object. */
        NOT_AN_OBJECT,
        /** An object has the same key twice. */
        DUPLICATE_KEY,
        /** Objects and arrays nested deeper than {@link Canonical#MAX_DEPTH}. */
        TOO_DEEP,
        /** The body, or its flattened pairs, are longer than the limits. */
        TOO_LARGE,
        /** The top-level {@code signature} is neither a string nor {@code null}. */
        SIGNATURE_NOT_STRING,
        /** A body to sign already has a top-level {@code signature}. */
        ALREADY_SIGNED,
        /** A re-cut rule refuses the body: see {@link #rule()} and {@link #path()}. */
        AMBIGUOUS
    }

    private final Kind kind;
    private final long offset;
    private final String path;
    private final Ambiguity rule;

    CanonicalException(Kind kind, String message, long offset, String path, Ambiguity rule) {
        super(message);
        this.kind = Objects.requireNonNull(kind);
        this.offset = offset;
        this.path = path;
        this.rule = rule;
    }

    static CanonicalException of(Kind kind, String message) {
        return new CanonicalException(kind, message, -1, null, null);
    }

    static CanonicalException at(Kind kind, String message, long offset) {
        return new CanonicalException(kind, message, offset, null, null);
    }

    static CanonicalException ambiguous(Ambiguity rule, String path) {
        return new CanonicalException(Kind.AMBIGUOUS,
                "refused by rule " + rule.id() + " at `" + path + "`: " + rule.describe(),
                -1, path, rule);
    }

    static CanonicalException duplicateKey(String path) {
        return new CanonicalException(Kind.DUPLICATE_KEY, "duplicate key `" + path + "`", -1, path, null);
    }

    /** This exception with the key's text replaced by {@code [redacted]} in its message and path. */
    CanonicalException redactedFor(PrivateKey key) {
        if (!key.occursIn(getMessage()) && !key.occursIn(path)) {
            return this;
        }
        CanonicalException copy = new CanonicalException(kind, key.redact(getMessage()), offset,
                key.redact(path), rule);
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /**
     * The kind of refusal.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The byte of the body where the problem was found, when one is known.
     *
     * @return the offset in bytes from the start of the body
     */
    public OptionalLong offset() {
        return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /**
     * The path of the member or element ({@code data.result[0].remark}) for a duplicate key
     * or a re-cut rule, else {@code null}.
     *
     * @return the path, or {@code null}
     */
    public String path() {
        return path;
    }

    /**
     * The re-cut rule for {@link Kind#AMBIGUOUS}, else {@code null}.
     *
     * @return the rule, or {@code null}
     */
    public Ambiguity rule() {
        return rule;
    }
}
