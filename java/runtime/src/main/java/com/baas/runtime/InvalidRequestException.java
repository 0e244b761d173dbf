package com.baas.runtime;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The request breaks rules of the spec; nothing was signed or sent. {@link #violations()}
 * names each field and rule.
 */
public final class InvalidRequestException extends BaasException {
    private static final long serialVersionUID = 1L;

    /** The violations (an unmodifiable list of records, serializable as such). */
    private final transient List<Violation> violations;

    /**
     * The error of a request's violations.
     *
     * @param violations every violated rule, in the order found
     */
    public InvalidRequestException(List<Violation> violations) {
        super("invalid request: " + violations.size() + (violations.size() == 1 ? " rule" : " rules")
                + " violated: " + violations.stream().map(Violation::toString).collect(Collectors.joining("; ")),
                null);
        this.violations = List.copyOf(violations);
    }

    /**
     * Every violated rule, each with its field path and rule.
     *
     * @return the violations
     */
    public List<Violation> violations() {
        return violations == null ? List.of() : violations;
    }

    /** Never sent. */
    @Override
    public boolean mayHaveReachedService() {
        return false;
    }
}
