package com.baas.runtime;

import java.io.Serializable;
import java.util.Objects;

/**
 * One violated rule of a request.
 *
 * @param field the field's path ({@code oderArray[2].amount}; for a rule across fields, the
 *     paths joined with {@code |})
 * @param rule the rule
 * @param message what is wrong, in words
 */
public record Violation(String field, Rule rule, String message) implements Serializable {
    /**
     * A violation.
     *
     * @param field the field's path
     * @param rule the rule
     * @param message what is wrong
     */
    public Violation {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
    }

    /**
     * {@code field: message}.
     *
     * @return the violation in words
     */
    @Override
    public String toString() {
        return field + ": " + message;
    }
}
