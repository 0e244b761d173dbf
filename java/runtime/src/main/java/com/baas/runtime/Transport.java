package com.baas.runtime;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The HTTP exchange under a client: POST the exact bytes, return the status and the exact
 * bytes of the answer. {@link JdkTransport} (java.net.http) is the default; fill it with
 * OkHttp, Apache HttpClient or your framework's client in a few lines:
 * <pre>{@code
 * Transport okhttp = request -> {
 *     try (Response r = ok.newCall(new Request.Builder().url(request.url().toString())
 *             .post(RequestBody.create(request.body(), JSON)).build()).execute()) {
 *         return new Transport.Response(r.code(), r.body().bytes());
 *     } catch (ConnectException e) {
 *         throw TransportException.notSent(e.toString(), e);   // nothing left: safe to retry
 *     } catch (IOException e) {
 *         throw TransportException.maybeSent(e.toString(), e);  // may have reached the service
 *     }
 * };
 * }</pre>
 * A transport never retries, never re-serializes the body, and says whether a failure
 * happened before any byte left ({@link TransportException#notSent}): only then may a call
 * that moves money be sent again.
 */
@FunctionalInterface
public interface Transport extends AutoCloseable {
    /**
     * One POST.
     *
     * @param url the operation's URL
     * @param body the exact bytes to send (a signed JSON envelope)
     * @param timeout the time limit of the whole exchange
     * @param maxResponseBytes the largest answer body to read
     */
    record Request(URI url, byte[] body, Duration timeout, long maxResponseBytes) {
        /**
         * A request.
         *
         * @param url the URL
         * @param body the bytes
         * @param timeout the limit
         * @param maxResponseBytes the largest answer
         */
        public Request {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(timeout, "timeout");
        }
    }

    /**
     * The answer to one POST.
     *
     * @param status the HTTP status
     * @param body the exact bytes received
     */
    record Response(int status, byte[] body) {
        /**
         * An answer.
         *
         * @param status the status
         * @param body the bytes
         */
        public Response {
            Objects.requireNonNull(body, "body");
        }
    }

    /**
     * Sends one request, blocking.
     *
     * @param request the request
     * @return the answer, whatever its status
     * @throws TransportException when the exchange failed (saying whether anything left)
     * @throws CallTimeoutException when no complete answer came in time
     * @throws ResponseTooLargeException when the answer is over the limit
     */
    Response send(Request request);

    /**
     * Sends one request without blocking the caller; by default {@link #send} on the common
     * pool. The future fails with the exceptions {@link #send} throws.
     *
     * @param request the request
     * @return the answer to come
     */
    default CompletableFuture<Response> sendAsync(Request request) {
        return CompletableFuture.supplyAsync(() -> send(request));
    }

    /** Releases the transport's resources (by default nothing). */
    @Override
    default void close() {
    }
}
