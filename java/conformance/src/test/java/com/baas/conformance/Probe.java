package com.baas.conformance;

import com.baas.runtime.JdkTransport;
import com.baas.runtime.Transport;
import com.baas.runtime.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

/** The client's transport in the scenarios: counts the requests that leave and applies a step's fault. */
final class Probe implements Transport {
    /** The faults a step may name. */
    static final Set<String> FAULTS = Set.of("drop_answer", "lose_request", "tamper_answer", "strip_signature");

    private final JdkTransport http = new JdkTransport(Duration.ofSeconds(10));
    int sent;
    String fault;

    @Override
    public Response send(Request request) {
        sent++;
        String f = fault;
        fault = null;
        if ("lose_request".equals(f)) {
            // Never forwarded: the service sees nothing, and the client sees what a connection
            // broken after sending shows (it cannot tell the two apart).
            throw TransportException.maybeSent("connection reset after sending (lose_request)", null);
        }
        Response answer = http.send(request);
        if (f == null) {
            return answer;
        }
        String text = new String(answer.body(), StandardCharsets.UTF_8);
        return switch (f) {
            case "drop_answer" -> throw TransportException.maybeSent("connection reset after sending (drop_answer)", null);
            case "tamper_answer" -> new Response(answer.status(),
                    text.replace("\"msg\":\"", "\"msg\":\"(tampered) ").getBytes(StandardCharsets.UTF_8));
            case "strip_signature" -> new Response(answer.status(), text
                    .replaceFirst(",\"signature\":\"[^\"]*\"|\"signature\":\"[^\"]*\",?", "").getBytes(StandardCharsets.UTF_8));
            default -> throw new AssertionError("unknown fault " + f);
        };
    }
}
