package com.baas.runtime;

import java.util.Objects;

/**
 * The base of a generated value set: a class with a constant per value the spec lists that
 * also keeps a value it does not list (a newer service may send one), never a Java enum that
 * fails on it. Two values are equal when they are of the same set and have the same wire text.
 * <pre>{@code
 * Currency c = Currency.of("XAF");   // not listed: kept, c.isKnown() is false
 * if (c.equals(Currency.KES)) { ... }
 * }</pre>
 */
public abstract class ValueSet {
    private final String wire;
    private final boolean known;

    /**
     * A value.
     *
     * @param wire its wire text
     * @param known whether the spec lists it
     */
    protected ValueSet(String wire, boolean known) {
        this.wire = Objects.requireNonNull(wire, "wire");
        this.known = known;
    }

    /**
     * The value as the wire carries it ({@code "KES"}, {@code "8"}).
     *
     * @return the wire text
     */
    public final String wire() {
        return wire;
    }

    /**
     * Whether the spec lists this value (false for one a newer service sent).
     *
     * @return true for a listed value
     */
    public final boolean isKnown() {
        return known;
    }

    @Override
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass() && ((ValueSet) other).wire.equals(wire);
    }

    @Override
    public final int hashCode() {
        return Objects.hash(getClass().getName(), wire);
    }

    /**
     * The wire text.
     *
     * @return the wire text
     */
    @Override
    public String toString() {
        return wire;
    }
}
