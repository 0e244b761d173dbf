package com.baas.signing;

import java.util.Optional;

/**
 * An answer verified against the request it answers ({@link Signer#verifyAnswer}): the
 * service's {@code code} and {@code msg}, whether its signature held, and the body read
 * losslessly. A success ({@code 00000}) is always signed and echoes the request's
 * requestId; a refusal may come unsigned (the API document allows it), and then its code
 * proves nothing ({@link #verified()} is false).
 *
 * @param code the service's result code ({@code 00000} is success)
 * @param msg the service's message, if any
 * @param verified whether the signature held (always true for a success)
 * @param body the body, flattened ({@link Flattened#value()} is its JSON; read
 *     {@code data} from it)
 */
public record Answer(String code, Optional<String> msg, boolean verified, Flattened body) {
    /** The result code of a success. */
    public static final String SUCCESS = "00000";

    /**
     * Whether the service did what was asked ({@code code} is {@code 00000}).
     *
     * @return true for a success
     */
    public boolean success() {
        return SUCCESS.equals(code);
    }
}
