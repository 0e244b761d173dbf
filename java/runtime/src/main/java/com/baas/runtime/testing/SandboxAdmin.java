package com.baas.runtime.testing;

import com.baas.signing.Canonical;
import com.baas.signing.JsonValue;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The sandbox's admin API (the {@code baas-sandbox} program, a loopback stand-in of the
 * service): read the OTP of a pending application, put faults in force, move its clock,
 * deliver a notification again, and read what happened. Unsigned, answered to loopback callers
 * only; nothing here is meant for the live service. Blocking.
 */
public final class SandboxAdmin {
    private static final String ADMIN = "/_sandbox";

    private final String baseUrl;
    private final HttpClient http;
    private final Duration timeout;
    private final String adminToken;

    /** An admin call the sandbox refused (its own message), or that nothing answered. */
    public static final class SandboxAdminException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;

        /**
         * A refusal.
         *
         * @param message what happened
         * @param status the HTTP status, or -1 when nothing answered
         * @param cause the failure, or {@code null}
         */
        public SandboxAdminException(String message, int status, Throwable cause) {
            super(message, cause);
            this.status = status;
        }

        /** @return the HTTP status of a refusal, -1 when nothing answered */
        public int status() {
            return status;
        }
    }

    /**
     * An application waiting for its OTP.
     *
     * @param businessId the OTP's business id (a transfer's txId, an application's id, ...)
     * @param operation the operation that created it, e.g. {@code applyForTransfer}
     * @param otpSent whether {@code sendOtp} was called for it
     * @param wrongAttempts wrong OTPs given so far
     * @param otp the OTP that confirms it
     */
    public record Application(String businessId, String operation, boolean otpSent, long wrongAttempts, String otp) {
    }

    /**
     * One attempt to deliver a notification to the callback URL.
     *
     * @param notificationType e.g. {@code 0028}
     * @param requestId the notification's requestId (the same on every attempt)
     * @param attempt 1 for the first attempt
     * @param acknowledged whether the receiver answered {@code ok}
     * @param outcome what happened
     */
    public record Delivery(String notificationType, String requestId, long attempt, boolean acknowledged,
            String outcome) {
    }

    /**
     * The admin API of the sandbox at {@code baseUrl} ({@code http://127.0.0.1:PORT}).
     *
     * @param baseUrl the sandbox's URL, as it prints it
     */
    public SandboxAdmin(String baseUrl) {
        this(baseUrl, null);
    }

    /**
     * The admin API of a sandbox started with {@code --admin-token} (its banner prints the
     * token): the token is sent in the {@code X-Sandbox-Admin-Token} header of every request.
     *
     * @param baseUrl the sandbox's URL, as it prints it
     * @param adminToken the sandbox's admin token, or {@code null} when it has none
     */
    public SandboxAdmin(String baseUrl, String adminToken) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.timeout = Duration.ofSeconds(10);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.adminToken = adminToken;
    }

    /** A request to the admin path, carrying the admin token when there is one. */
    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + ADMIN + "/" + path)).timeout(timeout);
        return adminToken == null ? b : b.header("X-Sandbox-Admin-Token", adminToken);
    }

    /**
     * Everything the admin page shows ({@code clock_ms}, {@code accounts}, {@code transactions},
     * {@code pending_applications}, {@code requests}, {@code deliveries}, {@code faults}, ...).
     *
     * @return the state, read losslessly
     */
    public JsonValue.JsonObject state() {
        if (get("api/state") instanceof JsonValue.JsonObject o) {
            return o;
        }
        throw new SandboxAdminException("the sandbox's state is not a JSON object", -1, null);
    }

    /**
     * The applications waiting for their OTP.
     *
     * @return them
     */
    public List<Application> pendingApplications() {
        List<Application> out = new ArrayList<>();
        for (JsonValue.JsonObject row : rows("api/applications")) {
            out.add(new Application(text(row, "business_id"), text(row, "operation"),
                    row.get("otp_sent") instanceof JsonValue.JsonBoolean b && b.value(),
                    number(row, "wrong_attempts"), text(row, "otp")));
        }
        return out;
    }

    /**
     * The OTP that confirms the pending application {@code businessId}.
     *
     * @param businessId its business id
     * @return the OTP
     * @throws SandboxAdminException naming the pending ones when it is not pending
     */
    public String otp(String businessId) {
        List<Application> pending = pendingApplications();
        for (Application a : pending) {
            if (a.businessId().equals(businessId)) {
                return a.otp();
            }
        }
        String waiting = pending.stream().map(Application::businessId).collect(Collectors.joining(", "));
        throw new SandboxAdminException("no application '" + businessId + "' waits for an OTP (pending: "
                + (waiting.isEmpty() ? "none" : waiting) + ")", -1, null);
    }

    /**
     * Every attempt to deliver a notification, newest first.
     *
     * @return the deliveries
     */
    public List<Delivery> deliveries() {
        List<Delivery> out = new ArrayList<>();
        for (JsonValue.JsonObject row : rows("api/deliveries")) {
            out.add(new Delivery(text(row, "notification_type"), text(row, "request_id"), number(row, "attempt"),
                    row.get("acknowledged") instanceof JsonValue.JsonBoolean b && b.value(), text(row, "outcome")));
        }
        return out;
    }

    /**
     * The last requests the sandbox answered (newest first), each with its answer and whether
     * its signature verified.
     *
     * @return the rows, read losslessly
     */
    public List<JsonValue.JsonObject> requests() {
        return rows("api/requests");
    }

    /**
     * Puts the faults of a YAML scenario ({@code faults: [...]}) in force.
     *
     * @param scenarioYaml the scenario
     * @return the sandbox's word, e.g. {@code 2 fault(s) added}
     */
    public String addFaults(String scenarioYaml) {
        return post("faults", scenarioYaml, "application/yaml");
    }

    /** Removes every fault in force. */
    public void clearFaults() {
        post("faults/clear", "", "text/plain");
    }

    /**
     * Moves the sandbox's clock forward ({@code 86_400_000} ms closes a day).
     *
     * @param ms milliseconds, 0 or more
     */
    public void advanceClock(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("advanceClock: " + ms + " is not a number of milliseconds >= 0");
        }
        post("clock", Long.toString(ms), "text/plain");
    }

    /**
     * Delivers the notification {@code requestId} again: the same requestId, re-signed.
     *
     * @param requestId the notification's requestId
     */
    public void redeliver(String requestId) {
        post("redeliver", requestId, "text/plain");
    }

    // ---- HTTP ----

    private HttpResponse<byte[]> exchange(HttpRequest request, String what) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new SandboxAdminException(what + ": " + e, -1, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxAdminException(what + ": interrupted", -1, e);
        }
    }

    private JsonValue get(String path) {
        String what = "GET " + ADMIN + "/" + path;
        HttpResponse<byte[]> r = exchange(request(path).GET().build(), what);
        if (r.statusCode() != 200) {
            throw new SandboxAdminException(what + ": HTTP " + r.statusCode() + ": "
                    + new String(r.body(), StandardCharsets.UTF_8).strip(), r.statusCode(), null);
        }
        return parse(r.body(), what);
    }

    /** Any JSON value, read by the lossless reader (which reads objects: the value is wrapped in one). */
    private static JsonValue parse(byte[] body, String what) {
        byte[] wrapped = new byte[body.length + 6];
        System.arraycopy("{\"v\":".getBytes(StandardCharsets.US_ASCII), 0, wrapped, 0, 5);
        System.arraycopy(body, 0, wrapped, 5, body.length);
        wrapped[wrapped.length - 1] = '}';
        try {
            return Canonical.parseLoose(wrapped).value().get("v");
        } catch (RuntimeException e) {
            throw new SandboxAdminException(what + ": not JSON (" + e.getMessage() + ")", -1, e);
        }
    }

    private List<JsonValue.JsonObject> rows(String path) {
        JsonValue got = get(path);
        List<JsonValue.JsonObject> out = new ArrayList<>();
        if (got instanceof JsonValue.JsonArray a) {
            for (JsonValue v : a.elements()) {
                if (v instanceof JsonValue.JsonObject o) {
                    out.add(o);
                    continue;
                }
                throw new SandboxAdminException("GET " + ADMIN + "/" + path + ": not an array of objects", -1, null);
            }
            return out;
        }
        throw new SandboxAdminException("GET " + ADMIN + "/" + path + ": not a JSON array", -1, null);
    }

    private String post(String path, String body, String contentType) {
        String what = "POST " + ADMIN + "/" + path;
        HttpResponse<byte[]> r = exchange(request(path).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(), what);
        JsonValue said;
        try {
            said = parse(r.body(), what);
        } catch (SandboxAdminException e) {
            said = null;
        }
        if (r.statusCode() == 200 && said instanceof JsonValue.JsonObject o && o.get("done") != null) {
            JsonValue done = o.get("done");
            return done instanceof JsonValue.JsonString s ? s.value() : String.valueOf(done);
        }
        String message = said instanceof JsonValue.JsonObject o ? o.getString("error") : null;
        throw new SandboxAdminException(what + ": " + (message != null ? message
                : new String(r.body(), StandardCharsets.UTF_8).strip() + " (HTTP " + r.statusCode() + ")"),
                r.statusCode(), null);
    }

    private static String text(JsonValue.JsonObject row, String name) {
        JsonValue v = row.get(name);
        return v instanceof JsonValue.JsonString s ? s.value()
                : v instanceof JsonValue.JsonNumber n ? n.literal() : "";
    }

    private static long number(JsonValue.JsonObject row, String name) {
        return row.get(name) instanceof JsonValue.JsonNumber n && n.isPlainInteger() ? Long.parseLong(n.literal()) : 0;
    }

    @Override
    public String toString() {
        return "SandboxAdmin[" + baseUrl + "]";
    }
}
