package com.baas.runtime;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs any generated {@link Operation}: validate, sign the exact bytes, send, verify the
 * answer bound to its requestId and kind, decode; blocking or with {@link CompletableFuture}.
 * The generated {@code Client} wraps it with a method per operation.
 *
 * <p>Retries: a retryable failure (a transport failure, a timeout, a gateway status 502-504,
 * or a result code the spec marks retryable, given as data by the generated code) is tried
 * again with a new requestId, salt and timestamp, up to {@link Config#maxRetries()} times with
 * doubling backoff, except that a call that moves money, or one whose requestId the caller
 * fixed, is re-sent only when the failed attempt provably never left. A call that moves money
 * and fails without a verified answer after its bytes may have left throws
 * {@link OutcomeUnknownException}, which nothing retries.
 *
 * <p>Logging: each call is one record of the {@code com.baas} {@link System.Logger} at DEBUG
 * (operation, outcome, code, requestId, attempts, duration); the key is never logged, the
 * parameters only with {@link Config#logParams()}.
 */
public final class RuntimeClient implements AutoCloseable {
    /** The longest wait between two attempts. */
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger("com.baas");

    private final Config config;
    private final Transport transport;
    private final Set<String> retryableCodes;

    /**
     * A client over the default transport ({@link JdkTransport}).
     *
     * @param config the configuration
     * @param retryableCodes the result codes the spec marks retryable (the generated
     *     {@code ResultCode.RETRYABLE})
     */
    public RuntimeClient(Config config, Set<String> retryableCodes) {
        this(config, new JdkTransport(config.connectTimeout()), retryableCodes);
    }

    /**
     * A client over a transport of yours (or {@code MockService}).
     *
     * @param config the configuration
     * @param transport the transport
     * @param retryableCodes the result codes the spec marks retryable
     */
    public RuntimeClient(Config config, Transport transport, Set<String> retryableCodes) {
        this.config = config;
        this.transport = transport;
        this.retryableCodes = Set.copyOf(retryableCodes);
    }

    /** @return the configuration */
    public Config config() {
        return config;
    }

    /** @return the result codes retried */
    public Set<String> retryableCodes() {
        return retryableCodes;
    }

    /** Closes the transport. */
    @Override
    public void close() {
        transport.close();
    }

    // ---- one attempt, shared by the blocking and the asynchronous paths ----

    /** One attempt's failure and the requestId it was sent with (null when nothing was signed). */
    private record Failed(BaasException error, String requestId) {
    }

    private <R> void validate(Operation<R> op, CallOptions options) {
        Validator v = new Validator();
        op.validate(v);
        try {
            v.finish();
        } catch (InvalidRequestException e) {
            throw e.inCall(op.operationName(), options.requestId().orElse(null), 0);
        }
    }

    private <R> Envelope.SignedRequest sign(Operation<R> op, CallOptions options) {
        return Envelope.signRequest(op::writeParams, config.sender(), config.locale(), config.privateKey(),
                options.requestId().orElse(null));
    }

    private Transport.Request request(Operation<?> op, Envelope.SignedRequest signed, CallOptions options) {
        return new Transport.Request(config.url(op.operationPath()), signed.body(),
                options.timeout().orElse(config.requestTimeout()), config.maxResponseBytes());
    }

    private <R> Success<R> open(Operation<R> op, Envelope.SignedRequest signed, Transport.Response response,
            int attempt) {
        Envelope.Answer answer = Envelope.openResponse(response.status(), response.body(), config.privateKey(),
                signed.requestId(), config.acceptUnsignedSuccess(), retryableCodes);
        return new Success<>(op.decodeResponse(answer.data()), signed.requestId(), answer.data(), attempt + 1);
    }

    /** The wait before the next attempt, or empty to give up. */
    private Optional<Duration> retryWait(Operation<?> op, Failed failed, int attempt, CallOptions options) {
        BaasException error = failed.error();
        boolean fixedId = options.requestId().isPresent();
        boolean mayResend = !(op.movesMoney() || fixedId) || !error.mayHaveReachedService();
        if (attempt >= config.maxRetries() || !error.isRetryable() || !mayResend) {
            return Optional.empty();
        }
        Duration wait = config.retryBackoff().multipliedBy(1L << Math.min(attempt, 16));
        return Optional.of(wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait);
    }

    /** The call's error: an unverified failure of a money call that may have left is unknown. */
    private BaasException finalError(Operation<?> op, Failed failed, int attempts) {
        BaasException error = failed.error();
        boolean unknown = op.movesMoney() && failed.requestId() != null && error.mayHaveReachedService()
                && !(error instanceof ApiException api && api.verified());
        BaasException out = unknown ? new OutcomeUnknownException(error) : error;
        return out.inCall(op.operationName(), failed.requestId(), attempts);
    }

    private void log(Operation<?> op, long started, BaasException error, Success<?> success) {
        if (!LOG.isLoggable(Level.DEBUG)) {
            return;
        }
        StringBuilder b = new StringBuilder("baas.call rpc.method=").append(op.operationName())
                .append(" url.path=").append(op.operationPath())
                .append(" baas.moves_money=").append(op.movesMoney())
                .append(" duration_ms=").append((System.nanoTime() - started) / 1_000_000);
        if (error != null) {
            b.append(" baas.outcome=").append(error.outcome().name().toLowerCase(java.util.Locale.ROOT));
            error.apiCode().ifPresent(c -> b.append(" baas.code=").append(c));
            error.requestId().ifPresent(r -> b.append(" baas.request_id=").append(r));
            b.append(" baas.attempts=").append(error.attempts());
        } else if (success != null) {
            b.append(" baas.outcome=success baas.request_id=").append(success.requestId())
                    .append(" baas.attempts=").append(success.attempts());
        }
        if (config.logParams()) {
            try {
                JsonWriter w = new JsonWriter();
                op.writeParams(w);
                b.append(" baas.params=").append(new String(w.toBytes(), StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                b.append(" baas.params=(not encodable)");
            }
        }
        LOG.log(Level.DEBUG, config.privateKey().redact(b.toString()));
    }

    // ---- blocking ----

    /**
     * The typed {@code data} of a successful call.
     *
     * @param <R> the response type
     * @param op the request
     * @return the response
     * @throws BaasException when the call fails (see its {@link BaasException#outcome()})
     */
    public <R> R execute(Operation<R> op) {
        return executeWith(op, CallOptions.none()).data();
    }

    /**
     * The typed {@code data} of a successful call, with per-call options.
     *
     * @param <R> the response type
     * @param op the request
     * @param options a requestId of the caller's, a time limit
     * @return the response
     * @throws BaasException when the call fails
     */
    public <R> R execute(Operation<R> op, CallOptions options) {
        return executeWith(op, options).data();
    }

    /**
     * A successful call with its requestId, raw data and attempts.
     *
     * @param <R> the response type
     * @param op the request
     * @param options a requestId of the caller's, a time limit
     * @return the success
     * @throws BaasException when the call fails
     */
    public <R> Success<R> executeWith(Operation<R> op, CallOptions options) {
        long started = System.nanoTime();
        try {
            validate(op, options);
            for (int attempt = 0;; attempt++) {
                Failed failed;
                Envelope.SignedRequest signed = null;
                try {
                    signed = sign(op, options);
                    Transport.Response response = transport.send(request(op, signed, options));
                    Success<R> success = open(op, signed, response, attempt);
                    log(op, started, null, success);
                    return success;
                } catch (BaasException e) {
                    failed = new Failed(e, signed == null ? null : signed.requestId());
                }
                Optional<Duration> wait = retryWait(op, failed, attempt, options);
                if (wait.isEmpty()) {
                    throw finalError(op, failed, attempt + 1);
                }
                try {
                    Thread.sleep(wait.get().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw finalError(op, failed, attempt + 1);
                }
            }
        } catch (BaasException e) {
            log(op, started, e, null);
            throw e;
        }
    }

    // ---- asynchronous ----

    /**
     * {@link #execute(Operation, CallOptions)} without blocking: the future completes with the
     * response, or exceptionally with the {@link BaasException} the blocking call would throw.
     *
     * @param <R> the response type
     * @param op the request
     * @param options the call's options
     * @return the response to come
     */
    public <R> CompletableFuture<R> executeAsync(Operation<R> op, CallOptions options) {
        return executeWithAsync(op, options).thenApply(Success::data);
    }

    /**
     * {@link #executeWith} without blocking.
     *
     * @param <R> the response type
     * @param op the request
     * @param options the call's options
     * @return the success to come
     */
    public <R> CompletableFuture<Success<R>> executeWithAsync(Operation<R> op, CallOptions options) {
        long started = System.nanoTime();
        CompletableFuture<Success<R>> out = new CompletableFuture<>();
        try {
            validate(op, options);
        } catch (BaasException e) {
            log(op, started, e, null);
            out.completeExceptionally(e);
            return out;
        }
        attemptAsync(op, options, 0, started, out);
        return out;
    }

    private <R> void attemptAsync(Operation<R> op, CallOptions options, int attempt, long started,
            CompletableFuture<Success<R>> out) {
        Envelope.SignedRequest signed;
        try {
            signed = sign(op, options);
        } catch (BaasException e) {
            failAsync(op, options, attempt, started, out, new Failed(e, null));
            return;
        }
        CompletableFuture<Transport.Response> sent;
        try {
            sent = transport.sendAsync(request(op, signed, options));
        } catch (BaasException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((response, thrown) -> {
            if (thrown == null) {
                try {
                    Success<R> success = open(op, signed, response, attempt);
                    log(op, started, null, success);
                    out.complete(success);
                    return;
                } catch (BaasException e) {
                    thrown = e;
                } catch (RuntimeException e) {
                    out.completeExceptionally(e);
                    return;
                }
            }
            Throwable cause = thrown instanceof CompletionException && thrown.getCause() != null
                    ? thrown.getCause() : thrown;
            BaasException error = cause instanceof BaasException b ? b
                    : TransportException.maybeSent(cause.toString(), cause);
            failAsync(op, options, attempt, started, out, new Failed(error, signed.requestId()));
        });
    }

    private <R> void failAsync(Operation<R> op, CallOptions options, int attempt, long started,
            CompletableFuture<Success<R>> out, Failed failed) {
        Optional<Duration> wait = retryWait(op, failed, attempt, options);
        if (wait.isEmpty()) {
            BaasException e = finalError(op, failed, attempt + 1);
            log(op, started, e, null);
            out.completeExceptionally(e);
            return;
        }
        Executor later = CompletableFuture.delayedExecutor(wait.get().toMillis(), TimeUnit.MILLISECONDS);
        later.execute(() -> attemptAsync(op, options, attempt + 1, started, out));
    }

    // ---- paging and waiting ----

    /**
     * Every page of a paged operation, from the request's page on: iterate the pages, or
     * {@link Pages#items()} / {@link Pages#stream()} for every item of every page. An error
     * ends the iteration, thrown.
     *
     * @param <R> the page's response type
     * @param <I> the item type
     * @param op the request of the first page
     * @return the pages
     */
    public <R, I> Pages<R, I> pages(PagedOperation<R, I> op) {
        return new Pages<>(this, op);
    }

    /**
     * Sends {@code query} until {@code state} of its answer is one of {@code finals}, waiting as
     * {@code policy} says; a retryable failure of one query is polled past.
     *
     * @param <R> the query's response type
     * @param query the status query
     * @param state the state of an answer, as its wire text (empty when the answer has none)
     * @param finals the final states' wire texts
     * @param policy how to wait
     * @return the first answer in a final state
     * @throws WaitDeadlineException when the deadline passes first
     * @throws BaasException when a query fails for another reason
     */
    public <R> R waitUntil(Operation<R> query, Function<R, Optional<String>> state, Set<String> finals,
            WaitPolicy policy) {
        Waiting w = new Waiting(policy);
        while (true) {
            try {
                Success<R> success = executeWith(query, CallOptions.none());
                if (w.isFinal(state.apply(success.data()), success.requestId(), finals)) {
                    return success.data();
                }
            } catch (BaasException e) {
                w.failed(e, query);
            }
            Duration delay = w.next(query);
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw w.deadline(query);
            }
        }
    }

    /**
     * Sends {@code query} (a status query with an application's business id) once and reads its
     * state ({@link Settlement}). Never throws a {@link BaasException}: a failed lookup is
     * {@link Settlement.StillUnknown}. The generated pending applications' {@code settle()} call it.
     *
     * @param <R> the query's response type
     * @param <S> the state's type
     * @param query the status query
     * @param state the state of an answer
     * @param awaitingOtp the states in which the application still waits for its OTP (wire text)
     * @param finals the final states (wire text)
     * @param otpRule when the OTP may be sent again (the spec's words)
     * @return what the lookup says
     */
    public <R, S> Settlement<S> settle(Operation<R> query, Function<R, Optional<S>> state, Set<String> awaitingOtp,
            Set<String> finals, String otpRule) {
        Success<R> success;
        try {
            success = executeWith(query, CallOptions.none());
        } catch (BaasException e) {
            return new Settlement.StillUnknown<>(e);
        }
        return Settlement.read(state.apply(success.data()), awaitingOtp, finals, otpRule, query.operationName(),
                success.requestId(), success.attempts());
    }

    /**
     * {@link #settle} without blocking; the future always completes normally.
     *
     * @param <R> the query's response type
     * @param <S> the state's type
     * @param query the status query
     * @param state the state of an answer
     * @param awaitingOtp the states in which the application still waits for its OTP (wire text)
     * @param finals the final states (wire text)
     * @param otpRule when the OTP may be sent again (the spec's words)
     * @return what the lookup says, to come
     */
    public <R, S> CompletableFuture<Settlement<S>> settleAsync(Operation<R> query, Function<R, Optional<S>> state,
            Set<String> awaitingOtp, Set<String> finals, String otpRule) {
        return executeWithAsync(query, CallOptions.none()).handle((success, thrown) -> {
            if (thrown == null) {
                return Settlement.read(state.apply(success.data()), awaitingOtp, finals, otpRule, query.operationName(),
                        success.requestId(), success.attempts());
            }
            Throwable cause = thrown instanceof CompletionException && thrown.getCause() != null
                    ? thrown.getCause() : thrown;
            if (cause instanceof BaasException e) {
                return new Settlement.StillUnknown<>(e);
            }
            throw thrown instanceof CompletionException c ? c : new CompletionException(thrown);
        });
    }

    /**
     * {@link #waitUntil} without blocking.
     *
     * @param <R> the query's response type
     * @param query the status query
     * @param state the state of an answer
     * @param finals the final states
     * @param policy how to wait
     * @return the first answer in a final state, to come
     */
    public <R> CompletableFuture<R> waitUntilAsync(Operation<R> query, Function<R, Optional<String>> state,
            Set<String> finals, WaitPolicy policy) {
        CompletableFuture<R> out = new CompletableFuture<>();
        pollAsync(query, state, finals, new Waiting(policy), out);
        return out;
    }

    private <R> void pollAsync(Operation<R> query, Function<R, Optional<String>> state, Set<String> finals,
            Waiting w, CompletableFuture<R> out) {
        executeWithAsync(query, CallOptions.none()).whenComplete((success, thrown) -> {
            try {
                if (thrown == null) {
                    if (w.isFinal(state.apply(success.data()), success.requestId(), finals)) {
                        out.complete(success.data());
                        return;
                    }
                } else {
                    Throwable cause = thrown instanceof CompletionException && thrown.getCause() != null
                            ? thrown.getCause() : thrown;
                    if (!(cause instanceof BaasException b)) {
                        out.completeExceptionally(cause);
                        return;
                    }
                    w.failed(b, query);
                }
                Duration delay = w.next(query);
                CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS)
                        .execute(() -> pollAsync(query, state, finals, w, out));
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
    }

    /** The state of one wait: the delays, the last state seen, the deadline. */
    private static final class Waiting {
        private final WaitPolicy policy;
        private final long started = System.nanoTime();
        private Duration delay;
        private String lastState;
        private String lastRequestId;
        private int queries;

        Waiting(WaitPolicy policy) {
            this.policy = policy;
            this.delay = policy.firstDelay();
        }

        boolean isFinal(Optional<String> state, String requestId, Set<String> finals) {
            queries++;
            lastState = state.orElse(null);
            lastRequestId = requestId;
            return state.isPresent() && finals.contains(state.get());
        }

        void failed(BaasException e, Operation<?> query) {
            queries++;
            if (!(e.isRetryable() && !query.movesMoney())) {
                throw e;
            }
        }

        Duration next(Operation<?> query) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            if (elapsed.plus(delay).compareTo(policy.deadline()) > 0) {
                throw deadline(query);
            }
            Duration now = delay;
            Duration doubled = delay.multipliedBy(2);
            delay = doubled.compareTo(policy.maxDelay()) > 0 ? policy.maxDelay() : doubled;
            return now;
        }

        BaasException deadline(Operation<?> query) {
            return new WaitDeadlineException(lastState, Duration.ofNanos(System.nanoTime() - started))
                    .inCall(query.operationName(), lastRequestId, queries);
        }
    }

    @Override
    public String toString() {
        return "RuntimeClient[" + config + ", transport=" + transport + "]";
    }
}
