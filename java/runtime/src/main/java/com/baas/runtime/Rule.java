package com.baas.runtime;

import java.util.Locale;

/**
 * The kind of rule a {@link Violation} breaks: one per rule kind of the spec, as every SDK of
 * this API names them ({@link #wireName()}: {@code max_chars}, {@code decimal_places}, ...).
 */
public enum Rule {
    /** At most N characters. */
    MAX_CHARS,
    /** At least N characters. */
    MIN_CHARS,
    /** ASCII letters and digits only. */
    ALPHANUMERIC,
    /** Valid standard Base64. */
    BASE64,
    /** Base64 decoding to at most N bytes. */
    BASE64_MAX_BYTES,
    /** Inside an inclusive range. */
    RANGE,
    /** Greater than zero. */
    POSITIVE,
    /** No fractional part. */
    WHOLE,
    /** At most N decimal places. */
    DECIMAL_PLACES,
    /** At most N items. */
    MAX_ITEMS,
    /** At least N items. */
    MIN_ITEMS,
    /** One of the values of a value set this request takes. */
    ONE_OF,
    /** Present (and, for text, not empty). */
    REQUIRED,
    /** Present when a condition holds. */
    REQUIRED_IF,
    /** At least one of several fields present. */
    AT_LEAST_ONE_OF,
    /** Exactly one of several fields present. */
    EXACTLY_ONE_OF;

    /**
     * The rule's name in every SDK and in the conformance scenarios.
     *
     * @return the snake-case name, e.g. {@code decimal_places}
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
