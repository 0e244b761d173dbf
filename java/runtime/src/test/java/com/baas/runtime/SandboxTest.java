package com.baas.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.baas.runtime.testing.SandboxAdmin;
import com.baas.runtime.testing.SandboxProcess;
import com.baas.signing.JsonValue;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime over real HTTP (JdkTransport) against the {@code baas-sandbox} program: found as
 * {@code $BAAS_SANDBOX}, else {@code debug/baas-sandbox} under {@code $CARGO_TARGET_DIR} or the
 * repository's {@code target/}. Skipped when there is none, unless {@code BAAS_REQUIRE_SANDBOX=1}
 * (as in CI), then failed.
 */
class SandboxTest {
    static SandboxProcess sandbox;

    static Optional<Path> binary() {
        String env = System.getenv("BAAS_SANDBOX");
        if (env != null && !env.isEmpty()) {
            return Optional.of(Path.of(env));
        }
        String target = System.getenv("CARGO_TARGET_DIR");
        Path repo = Path.of(System.getProperty("baas.repo", "../.."));
        for (Path dir : new Path[] {target == null ? null : Path.of(target), repo.resolve("target")}) {
            if (dir != null && Files.isExecutable(dir.resolve("debug/baas-sandbox"))) {
                return Optional.of(dir.resolve("debug/baas-sandbox"));
            }
        }
        return Optional.empty();
    }

    @BeforeAll
    static void start() {
        Optional<Path> found = binary();
        if (found.isEmpty()) {
            if ("1".equals(System.getenv("BAAS_REQUIRE_SANDBOX"))) {
                fail("BAAS_REQUIRE_SANDBOX=1 and no baas-sandbox program (set BAAS_SANDBOX)");
            }
            Assumptions.abort("no baas-sandbox program: build it with cargo build -p baas-sandbox");
        }
        sandbox = SandboxProcess.builder().binary(found.get()).start();
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    static RuntimeClient client(Transport transport) {
        return new RuntimeClient(sandbox.config().retryBackoff(Duration.ZERO).build(), transport, Set.of());
    }

    static final WaitPolicy FAST = new WaitPolicy(Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(20));

    BigDecimal balance(RuntimeClient c, String account) {
        return c.execute(new Ops.GetAccountDetails(account)).balance().orElseThrow();
    }

    JsonValue.JsonObject waitFinal(RuntimeClient c, String txId) {
        return c.waitUntil(new Ops.Raw("getTransResult", "/query/getTransResult", false, "{\"txId\":\"" + txId + "\"}"),
                r -> Optional.ofNullable(Wire.text(r.get("txStatus"))), Set.of("-1", "4", "8"), FAST);
    }

    @Test
    void anOtpTransferWaitedToItsFinalStateMovesTheMoneyOnce() {
        try (RuntimeClient c = new RuntimeClient(sandbox.config().build(), Set.of())) {
            BigDecimal payer = balance(c, "1000000001");
            BigDecimal payee = balance(c, "1000000004");
            Success<JsonValue.JsonObject> applied = c.executeWith(new Ops.ApplyForTransfer("1000000001", "46",
                    "1000000004", "KES", new BigDecimal("250.00"), "runtime test"), CallOptions.none());
            Ops.Pending pending = new Ops.Pending(c, applied);
            pending.sendOtp("sms");
            String otp = sandbox.admin().otp(pending.businessId());
            pending.confirm(otp);
            assertEquals("8", Wire.text(waitFinal(c, pending.businessId()).get("txStatus")));
            assertEquals(payer.subtract(new BigDecimal("250.00")), balance(c, "1000000001"));
            assertEquals(payee.add(new BigDecimal("250.00")), balance(c, "1000000004"));
            assertEquals(2, balance(c, "1000000001").scale(), "the balance's text keeps its two places");
        }
    }

    @Test
    void aLostConfirmationIsUnknownSentOnceAndFoundDoneByLookingItUp() {
        AtomicInteger sent = new AtomicInteger();
        boolean[] drop = {false};
        JdkTransport http = new JdkTransport(Duration.ofSeconds(5));
        Transport dropping = request -> {
            sent.incrementAndGet();
            Transport.Response r = http.send(request);
            if (drop[0]) {
                drop[0] = false;
                throw TransportException.maybeSent("connection reset after sending (test)", null);
            }
            return r;
        };
        RuntimeClient c = client(dropping);
        Ops.Pending pending = new Ops.Pending(c, c.executeWith(new Ops.ApplyForTransfer("1000000001", "46",
                "1000000004", "KES", new BigDecimal("75.00"), null), CallOptions.none()));
        pending.sendOtp("sms");
        String otp = sandbox.admin().otp(pending.businessId());
        drop[0] = true;
        int before = sent.get();
        OutcomeUnknownException e = assertThrows(OutcomeUnknownException.class, () -> pending.confirm(otp));
        assertEquals(before + 1, sent.get(), "sent once");
        assertEquals("confirmOperation", e.operation().orElseThrow());
        assertFalse(e.isRetryable());
        assertEquals("8", Wire.text(waitFinal(c, pending.businessId()).get("txStatus")));
    }

    @Test
    void everyPageOnceOverHttp() {
        RuntimeClient c = client(new JdkTransport(Duration.ofSeconds(5)));
        c.execute(new Ops.ApplyForTransfer("1000000001", "46", "1000000004", "KES", new BigDecimal("12.34"), null));
        Set<String> ids = new HashSet<>();
        long n = 0;
        for (JsonValue.JsonObject row : c.pages(new Ops.GetTransList("1000000001", 1, 1)).items()) {
            assertTrue(ids.add(row.getString("txId")), "no row twice");
            n++;
        }
        JsonValue.JsonObject first = c.execute(new Ops.GetTransList("1000000001", 1, 50));
        assertEquals(Wire.integer(first.get("totalRows"), "totalRows").longValue(), n);
        assertTrue(n >= 1);
    }

    @Test
    void theAdminApiAnswersAndRefusesByName() {
        SandboxAdmin admin = sandbox.admin();
        assertTrue(admin.state().get("accounts") != null);
        admin.advanceClock(1000);
        SandboxAdmin.SandboxAdminException e = assertThrows(SandboxAdmin.SandboxAdminException.class,
                () -> admin.addFaults("faults: [ {not: a fault} ]"));
        assertTrue(e.status() >= 400, e.getMessage());
        assertThrows(SandboxAdmin.SandboxAdminException.class, () -> admin.otp("no-such-application"));
    }

    @Test
    void withAnAdminTokenTheHelperSendsItAndOneWithoutItIsRefused() {
        try (SandboxProcess guarded = SandboxProcess.builder().binary(binary().orElseThrow())
                .adminToken("java-token-35").start()) {
            assertTrue(guarded.admin().state().get("accounts") != null);
            for (String token : new String[] {null, "java-token-3"}) {
                SandboxAdmin.SandboxAdminException e = assertThrows(SandboxAdmin.SandboxAdminException.class,
                        () -> new SandboxAdmin(guarded.url(), token).state());
                assertEquals(403, e.status(), e.getMessage());
                assertTrue(e.getMessage().contains("--admin-token"), e.getMessage());
            }
        }
    }
}
