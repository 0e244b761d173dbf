package com.baas.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.runtime.testing.MockAnswer;
import com.baas.runtime.testing.MockService;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The client core against MockService: validate, sign, send, verify, decode, retry, outcomes. */
class ClientTest {
    static final PrivateKey KEY = new PrivateKey("test-key-0123456789");
    static final Set<String> RETRYABLE = Set.of("10001");

    final MockService mock = new MockService(KEY);

    static Config config() {
        return Config.builder("https://baas.example.com", "partner1", KEY).retryBackoff(Duration.ZERO).build();
    }

    RuntimeClient client() {
        return new RuntimeClient(config(), mock, RETRYABLE);
    }

    static Ops.ApplyForTransfer transfer(String amount) {
        return new Ops.ApplyForTransfer("1000000001", "46", "0712345678", "KES", new BigDecimal(amount), "rent");
    }

    @Test
    void aQueryIsSignedVerifiedAndDecodedWithExactMoney() {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.data(
                "{\"accountId\":\"" + p.getString("accountId") + "\",\"balance\":\"250000.00\",\"newField\":[1,{}]}"));
        Success<Ops.AccountDetails> s = client().executeWith(new Ops.GetAccountDetails("1000000001"), CallOptions.none());
        assertEquals(new BigDecimal("250000.00"), s.data().balance().orElseThrow());
        assertEquals("250000.00", s.data().balance().orElseThrow().toPlainString(), "the scale is kept");
        assertEquals("1000000001", s.data().accountId().orElseThrow());
        assertTrue(s.data().currency().isEmpty(), "an absent field is empty");
        assertEquals(1, s.attempts());
        List<MockService.Recorded> sent = mock.requests();
        assertEquals(1, sent.size());
        assertEquals(s.requestId(), sent.get(0).requestId());
        assertTrue(s.requestId().startsWith("partner1"));
    }

    @Test
    void moneyIsSentAsItsExactText() {
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.data("{\"txId\":\"T1\"}"));
        client().execute(transfer("1500.50"));
        JsonValue amount = mock.requests().get(0).params().get("amount");
        assertEquals("1500.50", ((JsonValue.JsonString) amount).value());
    }

    @Test
    void anInvalidRequestNamesEachFieldAndRuleAndSendsNothing() {
        Ops.ApplyForTransfer bad = new Ops.ApplyForTransfer("", "46", "1", "KES", new BigDecimal("-1.005"),
                "x".repeat(101));
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> client().execute(bad));
        assertEquals(List.of("payerAccountId:required", "amount:positive", "amount:decimal_places", "remark:max_chars"),
                e.violations().stream().map(v -> v.field() + ":" + v.rule().wireName()).toList());
        assertEquals(Outcome.NOT_SENT, e.outcome());
        assertEquals(0, e.attempts());
        assertEquals("applyForTransfer", e.operation().orElseThrow());
        assertTrue(e.getMessage().startsWith("applyForTransfer (0 attempts): invalid request: 4 rules violated"),
                e.getMessage());
        assertTrue(mock.requests().isEmpty(), "nothing sent");
    }

    @Test
    void aSignedRefusalIsRefusedTypedAndNotRetried() {
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.refusal("14009", "Insufficient balance"));
        ApiException e = assertThrows(ApiException.class, () -> client().execute(transfer("10.00")));
        assertEquals(Outcome.REFUSED, e.outcome());
        assertEquals("14009", e.code());
        assertTrue(e.verified());
        assertFalse(e.isRetryable());
        assertEquals(1, e.attempts());
        assertEquals(mock.requests().get(0).requestId(), e.requestId().orElseThrow());
    }

    @Test
    void aRetryableCodeOfAQueryIsTriedAgainWithANewRequestId() {
        AtomicInteger n = new AtomicInteger();
        mock.on(Ops.GetAccountDetails.PATH, p -> n.getAndIncrement() == 0 ? MockAnswer.refusal("10001", "busy")
                : MockAnswer.data("{\"balance\":\"1.00\"}"));
        Success<Ops.AccountDetails> s = client().executeWith(new Ops.GetAccountDetails("1"), CallOptions.none());
        assertEquals(2, s.attempts());
        assertEquals(2, mock.requests().size());
        assertNotEquals(mock.requests().get(0).requestId(), mock.requests().get(1).requestId());
    }

    @Test
    void retriesStopAtMaxRetries() {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.refusal("10001", "busy"));
        ApiException e = assertThrows(ApiException.class, () -> client().execute(new Ops.GetAccountDetails("1")));
        assertTrue(e.isRetryable());
        assertEquals(3, e.attempts());
        assertEquals(3, mock.requests().size());
    }

    @Test
    void aLostAnswerOfAMoneyCallIsOutcomeUnknownAndSentOnce() {
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.Failure.NO_ANSWER);
        OutcomeUnknownException e = assertThrows(OutcomeUnknownException.class,
                () -> client().execute(transfer("10.00")));
        assertEquals(Outcome.UNKNOWN, e.outcome());
        assertFalse(e.isRetryable());
        assertEquals(1, e.attempts());
        assertEquals(1, mock.requests().size());
        assertEquals(mock.requests().get(0).requestId(), e.requestId().orElseThrow());
        assertInstanceOf(TransportException.class, e.getCause());
    }

    @Test
    void aLostAnswerOfAQueryIsTriedAgain() {
        AtomicInteger n = new AtomicInteger();
        mock.on(Ops.GetAccountDetails.PATH, p -> n.getAndIncrement() == 0 ? MockAnswer.Failure.NO_ANSWER
                : MockAnswer.data("{}"));
        assertEquals(2, client().executeWith(new Ops.GetAccountDetails("1"), CallOptions.none()).attempts());
    }

    @Test
    void aMoneyCallThatNeverLeftIsSentAgain() {
        AtomicInteger n = new AtomicInteger();
        mock.on(Ops.ApplyForTransfer.PATH, p -> n.getAndIncrement() == 0 ? MockAnswer.Failure.NOT_SENT
                : MockAnswer.data("{\"txId\":\"T\"}"));
        assertEquals(2, client().executeWith(transfer("1.00"), CallOptions.none()).attempts());
    }

    @Test
    void aGatewayPageIsRetryableForAQueryAndUnknownForMoney() {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.Failure.GATEWAY_ERROR);
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.Failure.GATEWAY_ERROR);
        DecodeException q = assertThrows(DecodeException.class, () -> client().execute(new Ops.GetAccountDetails("1")));
        assertEquals(3, q.attempts());
        assertEquals(502, q.status().getAsInt());
        assertThrows(OutcomeUnknownException.class, () -> client().execute(transfer("1.00")));
    }

    @Test
    void anUnsignedRefusalOfAMoneyCallIsUnknown() {
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.unsignedRefusal("14009", "Insufficient balance"));
        OutcomeUnknownException e = assertThrows(OutcomeUnknownException.class,
                () -> client().execute(transfer("1.00")));
        ApiException cause = assertInstanceOf(ApiException.class, e.getCause());
        assertFalse(cause.verified());
    }

    /** A transport that changes the answer after the mock signed it. */
    Transport tampering(java.util.function.UnaryOperator<byte[]> change) {
        return request -> {
            Transport.Response r = mock.send(request);
            return new Transport.Response(r.status(), change.apply(r.body()));
        };
    }

    static byte[] replace(byte[] body, String from, String to) {
        return new String(body, StandardCharsets.UTF_8).replace(from, to).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aTamperedOrUnsignedAnswerIsRefused() {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.data("{\"balance\":\"1.00\"}"));
        RuntimeClient changed = new RuntimeClient(config(), tampering(b -> replace(b, "1.00", "9.00")), RETRYABLE);
        SignatureInvalidException e = assertThrows(SignatureInvalidException.class,
                () -> changed.execute(new Ops.GetAccountDetails("1")));
        assertEquals(Outcome.UNKNOWN, e.outcome());
        RuntimeClient stripped = new RuntimeClient(config(),
                tampering(b -> replace(b, ",\"signature\":\"", ",\"x\":\"")), RETRYABLE);
        assertThrows(SignatureMissingException.class, () -> stripped.execute(new Ops.GetAccountDetails("1")));
        RuntimeClient money = new RuntimeClient(config(), tampering(b -> replace(b, "T1", "T2")), RETRYABLE);
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.data("{\"txId\":\"T1\"}"));
        int before = mock.requests().size();
        assertThrows(OutcomeUnknownException.class, () -> money.execute(transfer("1.00")));
        assertEquals(before + 1, mock.requests().size(), "a money call is sent once");
    }

    @Test
    void anUnsignedSuccessIsAcceptedOnlyWhenConfiguredAndStillBoundToItsRequest() {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.data("{\"balance\":\"3.00\"}"));
        Transport unsigned = tampering(b -> replace(b, ",\"signature\":\"", ",\"x\":\""));
        assertThrows(SignatureMissingException.class,
                () -> new RuntimeClient(config(), unsigned, RETRYABLE).execute(new Ops.GetAccountDetails("1")));
        Config lenient = config().toBuilder().acceptUnsignedSuccess(true).build();
        assertEquals(new BigDecimal("3.00"), new RuntimeClient(lenient, unsigned, RETRYABLE)
                .execute(new Ops.GetAccountDetails("1")).balance().orElseThrow());
        Transport otherId = request -> {
            Transport.Response r = unsigned.send(request);
            return new Transport.Response(r.status(), replace(r.body(), "partner1", "someone"));
        };
        assertThrows(RequestIdMismatchException.class,
                () -> new RuntimeClient(lenient, otherId, RETRYABLE).execute(new Ops.GetAccountDetails("1")));
    }

    @Test
    void anAnswerToAnotherRequestIsRefused() {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.data("{\"balance\":\"1.00\"}"));
        AtomicReference<byte[]> first = new AtomicReference<>();
        Transport replaying = request -> {
            Transport.Response r = mock.send(request);
            first.compareAndSet(null, r.body());
            return new Transport.Response(200, first.get());
        };
        RuntimeClient c = new RuntimeClient(config(), replaying, RETRYABLE);
        c.execute(new Ops.GetAccountDetails("1"));
        RequestIdMismatchException e = assertThrows(RequestIdMismatchException.class,
                () -> c.execute(new Ops.GetAccountDetails("1")));
        assertNotEquals(e.expected(), e.received().orElseThrow());
    }

    @Test
    void aNotificationIsNoAnswer() {
        Transport notifying = request -> {
            String rid = Envelope.verifyRequest(request.body(), KEY).requestId();
            byte[] n = MockService.signedNotification("0028", rid, "svc", "{}", System.currentTimeMillis(), KEY);
            return new Transport.Response(200, n);
        };
        RuntimeClient c = new RuntimeClient(config(), notifying, RETRYABLE);
        UntrustedException e = assertThrows(UntrustedException.class, () -> c.execute(new Ops.GetAccountDetails("1")));
        assertTrue(e.reason().contains("notificationType"), e.reason());
    }

    @Test
    void aCallersRequestIdAndTimeoutAreUsedAndNeverResentOnceSent() {
        AtomicReference<Duration> timeout = new AtomicReference<>();
        AtomicInteger sends = new AtomicInteger();
        Transport t = request -> {
            timeout.set(request.timeout());
            sends.incrementAndGet();
            throw TransportException.maybeSent("reset", null);
        };
        RuntimeClient c = new RuntimeClient(config(), t, RETRYABLE);
        TransportException e = assertThrows(TransportException.class, () -> c.execute(new Ops.GetAccountDetails("1"),
                CallOptions.none().requestId("MY-ID-1").timeout(Duration.ofSeconds(3))));
        assertEquals("MY-ID-1", e.requestId().orElseThrow());
        assertEquals(Duration.ofSeconds(3), timeout.get());
        assertEquals(1, sends.get(), "a fixed requestId is not re-sent once it may have left");
        EncodeException bad = assertThrows(EncodeException.class,
                () -> c.execute(new Ops.GetAccountDetails("1"), CallOptions.none().requestId("has space")));
        assertEquals(Outcome.NOT_SENT, bad.outcome());
    }

    @Test
    void theAsyncClientGivesTheSameResultsAndErrors() throws Exception {
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.data("{\"balance\":\"7.10\"}"));
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.Failure.NO_ANSWER);
        RuntimeClient c = client();
        assertEquals(new BigDecimal("7.10"),
                c.executeAsync(new Ops.GetAccountDetails("1"), CallOptions.none()).get().balance().orElseThrow());
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> c.executeAsync(transfer("1.00"), CallOptions.none()).get());
        OutcomeUnknownException u = assertInstanceOf(OutcomeUnknownException.class, e.getCause());
        assertEquals(1, u.attempts());
        ExecutionException invalid = assertThrows(ExecutionException.class,
                () -> c.executeAsync(transfer("-1"), CallOptions.none()).get());
        assertInstanceOf(InvalidRequestException.class, invalid.getCause());
    }

    @Test
    void theKeyIsInNoToStringAndNoError() {
        String secret = KEY.expose();
        assertFalse(config().toString().contains(secret));
        assertFalse(client().toString().contains(secret));
        mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.data("{\"echo\":\"" + secret + "\"}"));
        RuntimeClient c = new RuntimeClient(config(), tampering(b -> replace(b, "echo", "ECHO")), RETRYABLE);
        BaasException e = assertThrows(BaasException.class, () -> c.execute(new Ops.GetAccountDetails("1")));
        assertFalse(e.getMessage().contains(secret), e.getMessage());
        RuntimeClient broken = new RuntimeClient(config(),
                r -> new Transport.Response(200, ("{\"code\":\"" + secret + "\",").getBytes(StandardCharsets.UTF_8)),
                RETRYABLE);
        DecodeException d = assertThrows(DecodeException.class, () -> broken.execute(new Ops.GetAccountDetails("1")));
        assertFalse(d.getMessage().contains(secret), d.getMessage());
        assertTrue(d.getMessage().contains(PrivateKey.REDACTED), d.getMessage());
    }

    @Test
    void eachCallIsOneDebugRecordWithoutTheKey() {
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("com.baas");
        List<String> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                records.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(java.util.logging.Level.ALL);
        java.util.logging.Level before = jul.getLevel();
        jul.setLevel(java.util.logging.Level.ALL);
        jul.addHandler(capture);
        try {
            mock.on(Ops.GetAccountDetails.PATH, p -> MockAnswer.refusal("14009", "no"));
            Config logging = config().toBuilder().logParams(true).build();
            RuntimeClient c = new RuntimeClient(logging, mock, RETRYABLE);
            assertThrows(ApiException.class, () -> c.execute(new Ops.GetAccountDetails(KEY.expose())));
        } finally {
            jul.removeHandler(capture);
            jul.setLevel(before);
        }
        assertEquals(1, records.size(), records.toString());
        String line = records.get(0);
        assertTrue(line.contains("rpc.method=getAccountDetails") && line.contains("baas.outcome=refused")
                && line.contains("baas.code=14009") && line.contains("baas.attempts=1"), line);
        assertTrue(line.contains("baas.params={\"accountId\":\"[redacted]\"}"), line);
        assertFalse(line.contains(KEY.expose()), line);
    }

    @Test
    void aConfigurationThatCannotWorkIsRefusedByName() {
        assertEquals("baseUrl", assertThrows(ConfigException.class,
                () -> Config.builder("http://baas.example.com", "s", KEY).build()).field());
        assertEquals("privateKey", assertThrows(ConfigException.class,
                () -> Config.builder("https://baas.example.com", "s", new PrivateKey("")).build()).field());
        assertEquals("locale", assertThrows(ConfigException.class,
                () -> Config.builder("https://baas.example.com", "s", KEY).locale("english").build()).field());
        Config.builder("http://127.0.0.1:8080", "s", KEY).build();
    }
}
