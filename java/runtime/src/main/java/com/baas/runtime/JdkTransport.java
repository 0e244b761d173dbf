package com.baas.runtime;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;

/**
 * The default {@link Transport}: the JDK's {@link HttpClient} (no dependency), no redirects
 * followed, the answer read up to the configured limit.
 */
public final class JdkTransport implements Transport {
    private final HttpClient http;
    private final Duration connectTimeout;

    /**
     * A transport over a new {@link HttpClient}.
     *
     * @param connectTimeout time to establish a connection
     */
    public JdkTransport(Duration connectTimeout) {
        this(HttpClient.newBuilder().connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build(), connectTimeout);
    }

    /**
     * A transport over your own {@link HttpClient} (proxy, TLS, executor settings).
     *
     * @param http the client
     * @param connectTimeout its connect timeout, as reported in errors
     */
    public JdkTransport(HttpClient http, Duration connectTimeout) {
        this.http = http;
        this.connectTimeout = connectTimeout;
    }

    private static HttpRequest build(Request request) {
        return HttpRequest.newBuilder(request.url())
                .timeout(request.timeout())
                .header("Content-Type", "application/json; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()))
                .build();
    }

    @Override
    public Response send(Request request) {
        try {
            HttpResponse<byte[]> r = http.send(build(request), limited(request.maxResponseBytes()));
            return new Response(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TransportException.maybeSent("interrupted while waiting for the answer", e);
        } catch (IOException e) {
            throw map(e, request);
        }
    }

    @Override
    public CompletableFuture<Response> sendAsync(Request request) {
        CompletableFuture<Response> out = new CompletableFuture<>();
        http.sendAsync(build(request), limited(request.maxResponseBytes())).whenComplete((r, e) -> {
            if (e == null) {
                out.complete(new Response(r.statusCode(), r.body()));
                return;
            }
            Throwable cause = e;
            while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                    && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof BaasException b) {
                out.completeExceptionally(b);
            } else if (cause instanceof IOException io) {
                out.completeExceptionally(map(io, request));
            } else {
                out.completeExceptionally(TransportException.maybeSent(cause.toString(), cause));
            }
        });
        return out;
    }

    private BaasException map(IOException e, Request request) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ResponseTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        if (e instanceof HttpConnectTimeoutException) {
            return new CallTimeoutException(connectTimeout, false);
        }
        if (e instanceof HttpTimeoutException) {
            return new CallTimeoutException(request.timeout(), true);
        }
        if (e instanceof ConnectException || e.getCause() instanceof UnresolvedAddressException) {
            return TransportException.notSent("cannot connect to " + request.url().getHost() + ": " + e, e);
        }
        return TransportException.maybeSent(e.toString(), e);
    }

    /** Reads the body into bytes, failing once it passes {@code limit}. */
    private static HttpResponse.BodyHandler<byte[]> limited(long limit) {
        return info -> new HttpResponse.BodySubscriber<>() {
            private final CompletableFuture<byte[]> body = new CompletableFuture<>();
            private final List<byte[]> parts = new ArrayList<>();
            private long size;
            private Flow.Subscription subscription;

            @Override
            public CompletionStage<byte[]> getBody() {
                return body;
            }

            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(List<ByteBuffer> buffers) {
                for (ByteBuffer b : buffers) {
                    size += b.remaining();
                    if (size > limit) {
                        subscription.cancel();
                        body.completeExceptionally(new IOException("answer over the limit",
                                new ResponseTooLargeException(limit)));
                        return;
                    }
                    byte[] part = new byte[b.remaining()];
                    b.get(part);
                    parts.add(part);
                }
            }

            @Override
            public void onError(Throwable e) {
                body.completeExceptionally(e);
            }

            @Override
            public void onComplete() {
                byte[] all = new byte[(int) size];
                int at = 0;
                for (byte[] p : parts) {
                    System.arraycopy(p, 0, all, at, p.length);
                    at += p.length;
                }
                body.complete(all);
            }
        };
    }

    @Override
    public String toString() {
        return "JdkTransport[connectTimeout=" + connectTimeout + "]";
    }
}
