package com.baas.conformance;

import com.baas.runtime.JdkTransport;
import com.baas.runtime.Transport;
import com.baas.runtime.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The client's transport in the scenarios: counts the requests that leave and applies a step's fault. */
final class Probe implements Transport {
    private final JdkTransport http = new JdkTransport(Duration.ofSeconds(10));
    int sent;
    String fault;

    @Override
    public Response send(Request request) {
        sent++;
        String f = fault;
        fault = null;
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
