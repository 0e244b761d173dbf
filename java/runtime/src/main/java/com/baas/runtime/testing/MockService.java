package com.baas.runtime.testing;

import com.baas.runtime.BaasException;
import com.baas.runtime.Envelope;
import com.baas.runtime.JsonWriter;
import com.baas.runtime.Transport;
import com.baas.runtime.TransportException;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A stand-in for the service in partners' unit tests, as a {@link Transport}: it verifies each
 * request's signature, answers from stubs per operation path, signs its answers with the
 * partner's key and records the requests, so the client under test validates, signs,
 * verifies and decodes exactly as in production, without a network.
 * <pre>{@code
 * MockService mock = new MockService(key);
 * mock.on(GetAccountDetailsRequest.PATH, params -> MockAnswer.data("{\"balance\":\"10.00\"}"));
 * Client client = new Client(config, mock);
 * }</pre>
 * Thread-safe.
 */
public final class MockService implements Transport {
    /** One request the mock received, its signature verified.
     *
     * @param path the operation's path
     * @param requestId its requestId
     * @param params its params as sent (numbers as their literal text)
     */
    public record Recorded(String path, String requestId, JsonValue.JsonObject params) {
    }

    private final PrivateKey key;
    private final String sender;
    private final Map<String, Function<JsonValue.JsonObject, MockAnswer>> stubs = new HashMap<>();
    private final List<Recorded> requests = new ArrayList<>();

    /**
     * A mock that signs as the service does, with sender {@code mock-service}.
     *
     * @param key the partner's key (the one the client is configured with)
     */
    public MockService(PrivateKey key) {
        this(key, "mock-service");
    }

    /**
     * A mock with its own sender name.
     *
     * @param key the partner's key
     * @param sender the sender of its answers
     */
    public MockService(PrivateKey key, String sender) {
        this.key = Objects.requireNonNull(key, "key");
        this.sender = Objects.requireNonNull(sender, "sender");
    }

    /**
     * Answers an operation with what {@code stub} returns for the request's params; replaces
     * an earlier stub of the same path.
     *
     * @param path the operation's wire path (the generated request's {@code PATH})
     * @param stub the answer for each request's params
     * @return this mock
     */
    public synchronized MockService on(String path, Function<JsonValue.JsonObject, MockAnswer> stub) {
        stubs.put(path, Objects.requireNonNull(stub, "stub"));
        return this;
    }

    /**
     * Every request received, in order.
     *
     * @return a copy
     */
    public synchronized List<Recorded> requests() {
        return List.copyOf(requests);
    }

    /**
     * The requests of one operation, in order.
     *
     * @param path the operation's wire path
     * @return a copy
     */
    public synchronized List<Recorded> requestsOf(String path) {
        return requests.stream().filter(r -> r.path().equals(path)).toList();
    }

    @Override
    public Response send(Request request) {
        String path = request.url().getPath();
        Envelope.ReceivedRequest received;
        try {
            received = Envelope.verifyRequest(request.body(), key);
        } catch (BaasException e) {
            // As the service: an unsigned refusal that echoes nothing of the request.
            return new Response(200, "{\"code\":\"12005\",\"msg\":\"Invalid signature\"}".getBytes(StandardCharsets.UTF_8));
        }
        Function<JsonValue.JsonObject, MockAnswer> stub;
        synchronized (this) {
            requests.add(new Recorded(path, received.requestId(), received.params()));
            stub = stubs.get(path);
        }
        if (stub == null) {
            return new Response(500, ("no stub for " + path).getBytes(StandardCharsets.UTF_8));
        }
        MockAnswer answer = stub.apply(received.params());
        if (answer == MockAnswer.Failure.NOT_SENT) {
            throw TransportException.notSent("mock: the connection never opened", null);
        } else if (answer == MockAnswer.Failure.NO_ANSWER) {
            throw TransportException.maybeSent("mock: no answer", null);
        } else if (answer == MockAnswer.Failure.GATEWAY_ERROR) {
            return new Response(502, "<html>502 Bad Gateway</html>".getBytes(StandardCharsets.UTF_8));
        } else if (answer instanceof MockAnswer.Refusal r) {
            if (!r.signed()) {
                byte[] body = new JsonWriter().beginObject().name("code").value(r.code()).name("msg").value(r.msg())
                        .endObject().toBytes();
                return new Response(200, body);
            }
            return new Response(200, Envelope.signedAnswer(received.requestId(), sender, received.locale(),
                    r.code(), r.msg(), null, key));
        }
        JsonValue.JsonObject data = ((MockAnswer.Data) answer).data();
        return new Response(200, Envelope.signedAnswer(received.requestId(), sender, received.locale(),
                Envelope.SUCCESS_CODE, "success", data == null ? null : w -> w.json(data), key));
    }

    /**
     * A notification as the service sends it, signed with {@code key} (for tests of your
     * receiver).
     *
     * @param notificationType e.g. {@code 0028}
     * @param requestId the notification's requestId
     * @param sender the service's sender name
     * @param paramsJson the payload, a JSON object's text
     * @param timestampMillis its date, epoch milliseconds
     * @param key the partner's key
     * @return the body's bytes
     */
    public static byte[] signedNotification(String notificationType, String requestId, String sender,
            String paramsJson, long timestampMillis, PrivateKey key) {
        JsonValue.JsonObject params = ((MockAnswer.Data) MockAnswer.data(paramsJson)).data();
        JsonWriter w = new JsonWriter().beginObject();
        w.name("requestId").value(requestId);
        w.name("sender").value(sender);
        w.name("notificationType").value(notificationType);
        w.name("locale").value("en_KE");
        w.name("timestamp").value(timestampMillis);
        w.name("salt").value(Envelope.newSalt());
        w.name("params").json(params);
        return Envelope.sign(w.endObject().toBytes(), key);
    }

    @Override
    public synchronized String toString() {
        return "MockService[stubs=" + stubs.keySet() + ", requests=" + requests.size() + "]";
    }
}
