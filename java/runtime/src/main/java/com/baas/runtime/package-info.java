/**
 * The runtime of the BaaS partner API's Java client: what every generated operation shares.
 *
 * <ul>
 * <li>{@link com.baas.runtime.RuntimeClient}: validate, sign the exact bytes, send, verify the
 * answer bound to its requestId and kind, decode; retries, {@link
 * com.baas.runtime.OutcomeUnknownException} for a money call whose outcome is unknown, paging
 * ({@link com.baas.runtime.Pages}), waiting ({@link com.baas.runtime.WaitPolicy}), the
 * {@link java.util.concurrent.CompletableFuture} variants;
 * <li>{@link com.baas.runtime.Operation} and {@link com.baas.runtime.PagedOperation}: the
 * contract generated requests implement, with {@link com.baas.runtime.Validator},
 * {@link com.baas.runtime.JsonWriter} and {@link com.baas.runtime.Wire};
 * <li>{@link com.baas.runtime.BaasException} and its subclasses: every error says whether the
 * request was not sent, refused, or of unknown outcome ({@link com.baas.runtime.Outcome});
 * <li>{@link com.baas.runtime.Transport}: the HTTP exchange ({@link
 * com.baas.runtime.JdkTransport} by default);
 * <li>{@link com.baas.runtime.NotificationHandler} and {@link com.baas.runtime.ProcessedIds}:
 * receiving callback notifications once each.
 * </ul>
 * Signing itself is {@link com.baas.signing}'s.
 *
 * @serial exclude
 */
package com.baas.runtime;
