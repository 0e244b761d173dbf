package com.baas.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.runtime.testing.MockService;
import com.baas.signing.Notification;
import com.baas.signing.NotificationException;
import com.baas.signing.NotificationVerifier;
import com.baas.signing.PrivateKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Receiving notifications: verified, processed once across restarts, answered ok. */
class NotificationsTest {
    static final PrivateKey KEY = new PrivateKey("notify-key");
    static final String SERVICE = "baas-sandbox";

    @TempDir
    Path dir;

    static Clock at(long millis) {
        return Clock.fixed(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
    }

    @Test
    void idsAreKeptExactlyAcrossARestartWhateverTheyHold() throws Exception {
        Path file = dir.resolve("seen.txt");
        List<ProcessedIds.DeliveryId> odd = List.of(
                new ProcessedIds.DeliveryId("with space", "0028"),
                new ProcessedIds.DeliveryId("cr\rlf\nboth\r\n", "0028"),
                new ProcessedIds.DeliveryId("ls\u2028nel\u0085vt\u000bfs\u001c", "00 28"),
                new ProcessedIds.DeliveryId("percent%20not-an-escape", "%"),
                new ProcessedIds.DeliveryId("", "0015"));
        FileProcessedIds store = new FileProcessedIds(file);
        for (ProcessedIds.DeliveryId id : odd) {
            assertTrue(store.isNew(id));
            store.record(id);
            assertFalse(store.isNew(id));
        }
        FileProcessedIds reopened = new FileProcessedIds(file);
        assertEquals(odd.size(), reopened.size());
        for (ProcessedIds.DeliveryId id : odd) {
            assertFalse(reopened.isNew(id), "kept exactly: " + id);
        }
        assertTrue(reopened.isNew(new ProcessedIds.DeliveryId("with", "0028")));
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(FileProcessedIds.HEADER, lines.get(0));
        assertEquals(odd.size() + 1, lines.size(), "the header, then one line per id");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void theSharedProcessedIdsFileIsReadAsEverySdkReadsIt() throws Exception {
        com.baas.signing.JsonValue.JsonObject shared = com.baas.signing.Canonical.parseLoose(Files.readAllBytes(
                Path.of(System.getProperty("baas.repo", "../.."), "tests/data/seen-file.json"))).value();
        Path file = dir.resolve("shared.txt");
        Files.writeString(file, shared.getString("file"), StandardCharsets.UTF_8);
        long recorded = Long.parseLong(((com.baas.signing.JsonValue.JsonNumber) shared.get("recorded_ms")).literal());
        FileProcessedIds store = new FileProcessedIds(file, FileProcessedIds.DEFAULT_HORIZON, at(recorded + 1000));
        List<ProcessedIds.DeliveryId> ids = new ArrayList<>();
        for (com.baas.signing.JsonValue pair : ((com.baas.signing.JsonValue.JsonArray) shared.get("ids")).elements()) {
            List<com.baas.signing.JsonValue> two = ((com.baas.signing.JsonValue.JsonArray) pair).elements();
            ids.add(new ProcessedIds.DeliveryId(((com.baas.signing.JsonValue.JsonString) two.get(1)).value(),
                    ((com.baas.signing.JsonValue.JsonString) two.get(0)).value()));
        }
        for (ProcessedIds.DeliveryId id : ids) {
            assertFalse(store.isNew(id), "known: " + id);
        }
        assertEquals(ids.size(), store.size(), "no other id");
        assertEquals(shared.getString("file"), Files.readString(file, StandardCharsets.UTF_8),
                "rewritten byte for byte as the other SDKs write it");
    }

    @Test
    void anIdIsKeptForTheHorizonFromWhenItWasRecorded() {
        Path file = dir.resolve("seen.txt");
        Duration horizon = Duration.ofDays(30);
        long t0 = 1_700_000_000_000L;
        ProcessedIds.DeliveryId id = new ProcessedIds.DeliveryId("R1", "0028");
        new FileProcessedIds(file, horizon, at(t0)).record(id);
        assertFalse(new FileProcessedIds(file, horizon, at(t0 + horizon.toMillis())).isNew(id));
        assertTrue(new FileProcessedIds(file, horizon, at(t0 + horizon.toMillis() + 1)).isNew(id));
    }

    @Test
    void aResignedRedeliveryAfterAnOutageLongerThanTheWindowIsNotProcessedAgain() {
        Path file = dir.resolve("seen.txt");
        long day = Duration.ofDays(1).toMillis();
        long t0 = System.currentTimeMillis() - 3 * day;
        List<String> processed = new ArrayList<>();
        ProcessedIds store = new FileProcessedIds(file, FileProcessedIds.DEFAULT_HORIZON, at(t0));
        NotificationVerifier then = new NotificationVerifier(KEY, SERVICE);
        byte[] first = MockService.signedNotification("0028", "N1", SERVICE, "{}", t0, KEY);
        assertEquals("N1", then.verify(first, t0).requestId());
        store.record(new ProcessedIds.DeliveryId("N1", "0028"));
        processed.add("N1");
        // Three days later (longer than the 24-hour freshness window), after a restart: the
        // service re-delivers it re-signed with a fresh timestamp.
        NotificationHandler handler = new NotificationHandler(then, new FileProcessedIds(file),
                n -> processed.add(n.requestId()));
        byte[] again = MockService.signedNotification("0028", "N1", SERVICE, "{}", System.currentTimeMillis(), KEY);
        assertEquals("ok", handler.handle(again));
        assertEquals(List.of("N1"), processed, "processed once");
    }

    @Test
    void theHandlerProcessesOnceAnswersOkAndRefusesWhatIsNotTheServices() {
        List<Notification> processed = new ArrayList<>();
        NotificationHandler handler = new NotificationHandler(new NotificationVerifier(KEY, SERVICE),
                new FileProcessedIds(dir.resolve("seen.txt")), processed::add);
        byte[] body = MockService.signedNotification("0028", "N2", SERVICE, "{\"amount\":\"10.50\"}",
                System.currentTimeMillis(), KEY);
        assertEquals("ok", handler.handle(body));
        assertEquals("ok", handler.handle(body));
        assertEquals(1, processed.size());
        assertEquals("10.50", ((com.baas.signing.JsonValue.JsonObject) processed.get(0).params()).getString("amount"));
        byte[] other = MockService.signedNotification("0028", "N3", "someone-else", "{}", System.currentTimeMillis(), KEY);
        assertEquals(NotificationException.Kind.UNTRUSTED,
                assertThrows(NotificationException.class, () -> handler.handle(other)).kind());
        byte[] altered = new String(body, StandardCharsets.UTF_8).replace("10.50", "99.50").getBytes(StandardCharsets.UTF_8);
        assertEquals(NotificationException.Kind.SIGNATURE_INVALID,
                assertThrows(NotificationException.class, () -> handler.handle(altered)).kind());
        assertEquals(1, processed.size());
    }

    @Test
    void aFailedProcessingIsNotRecordedSoTheRedeliveryIsProcessed() {
        List<String> processed = new ArrayList<>();
        boolean[] fail = {true};
        NotificationHandler handler = new NotificationHandler(new NotificationVerifier(KEY, SERVICE),
                new FileProcessedIds(dir.resolve("seen.txt")), n -> {
                    if (fail[0]) {
                        throw new IllegalStateException("database down");
                    }
                    processed.add(n.requestId());
                });
        byte[] body = MockService.signedNotification("0026", "N4", SERVICE, "{}", System.currentTimeMillis(), KEY);
        assertThrows(IllegalStateException.class, () -> handler.handle(body));
        fail[0] = false;
        assertEquals("ok", handler.handle(body));
        assertEquals(List.of("N4"), processed);
    }

    @Test
    void aFailureToRecordStillAcknowledgesAndDoesNotProcessAgain() {
        List<String> processed = new ArrayList<>();
        ProcessedIds broken = new ProcessedIds() {
            @Override
            public boolean isNew(DeliveryId id) {
                return true;
            }

            @Override
            public void record(DeliveryId id) {
                throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
            }
        };
        NotificationHandler handler = new NotificationHandler(new NotificationVerifier(KEY, SERVICE), broken,
                n -> processed.add(n.requestId()));
        byte[] body = MockService.signedNotification("0015", "N5", SERVICE, "{}", System.currentTimeMillis(), KEY);
        assertEquals("ok", handler.handle(body));
        assertEquals("ok", handler.handle(body));
        assertEquals(List.of("N5"), processed);
    }
}
