package com.baas.runtime;

/**
 * Where a value sits in a request: {@code FieldPath.ROOT.field("oderArray").index(2)} reads
 * {@code oderArray[2]}. Immutable.
 */
public final class FieldPath {
    /** The request's params object itself. */
    public static final FieldPath ROOT = new FieldPath("");

    private final String text;

    private FieldPath(String text) {
        this.text = text;
    }

    /**
     * A member of the object at this path.
     *
     * @param name the member's wire name
     * @return its path
     */
    public FieldPath field(String name) {
        return new FieldPath(text.isEmpty() ? name : text + "." + name);
    }

    /**
     * An element of the array at this path.
     *
     * @param index the element's index
     * @return its path
     */
    public FieldPath index(int index) {
        return new FieldPath(text + "[" + index + "]");
    }

    /**
     * The path as text, e.g. {@code oderArray[2].amount} (empty for {@link #ROOT}).
     *
     * @return the path
     */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FieldPath p && p.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
