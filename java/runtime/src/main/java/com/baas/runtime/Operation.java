package com.baas.runtime;

import com.baas.signing.JsonValue;

/**
 * The contract generated code implements: one operation's request, with the operation's
 * name, wire path, whether it may move money, its rules, how its {@code params} are written
 * and how its answer's {@code data} is read. {@link RuntimeClient} does the rest (validate,
 * sign the exact bytes, send, verify the answer bound to the requestId, decode).
 *
 * @param <R> the typed response
 */
public interface Operation<R> {
    /**
     * The operation's spec name, e.g. {@code applyForTransfer}.
     *
     * @return the name
     */
    String operationName();

    /**
     * The wire path, e.g. {@code /trans/v2/applyForTransfer}.
     *
     * @return the path
     */
    String operationPath();

    /**
     * Whether the call may move money: then it is never re-sent once its bytes may have left,
     * and a failure without a verified answer is an {@link OutcomeUnknownException}.
     *
     * @return true for a money call
     */
    boolean movesMoney();

    /**
     * Records every rule of the spec the request breaks (the client calls it before anything
     * is signed; {@link Validator#finish()} throws them together).
     *
     * @param v the validator
     */
    void validate(Validator v);

    /**
     * Writes the request's {@code params} object.
     *
     * @param w the writer of the bytes that are signed and sent
     */
    void writeParams(JsonWriter w);

    /**
     * Reads the verified answer's {@code data} (an empty object when absent).
     *
     * @param data the data, read losslessly
     * @return the typed response
     * @throws DecodeException when the data has another shape
     */
    R decodeResponse(JsonValue data);
}
