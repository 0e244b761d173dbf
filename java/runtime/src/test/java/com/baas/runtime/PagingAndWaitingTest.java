package com.baas.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.runtime.testing.MockAnswer;
import com.baas.runtime.testing.MockService;
import com.baas.signing.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Paging across pages, and waiting for a final state, blocking and asynchronous. */
class PagingAndWaitingTest {
    final MockService mock = new MockService(ClientTest.KEY);
    final RuntimeClient client = new RuntimeClient(ClientTest.config(), mock, ClientTest.RETRYABLE);

    /** Five rows served {@code pageSize} at a time, with the total when {@code withTotal}. */
    void serveFiveRows(boolean withTotal) {
        mock.on(Ops.GetTransList.PATH, p -> {
            int page = Integer.parseInt(((JsonValue.JsonNumber) p.get("pageNo")).literal());
            int size = Integer.parseInt(((JsonValue.JsonNumber) p.get("pageSize")).literal());
            StringBuilder rows = new StringBuilder();
            for (int i = (page - 1) * size; i < Math.min(page * size, 5); i++) {
                rows.append(rows.length() == 0 ? "" : ",").append("{\"txId\":\"T").append(i).append("\"}");
            }
            return MockAnswer.data("{" + (withTotal ? "\"totalRows\":5," : "") + "\"result\":[" + rows + "]}");
        });
    }

    static List<String> ids(Iterable<JsonValue.JsonObject> rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getString("txId")));
        return out;
    }

    @Test
    void everyItemOfEveryPageOnceStoppingAtTheTotal() {
        serveFiveRows(true);
        Pages<JsonValue.JsonObject, JsonValue.JsonObject> pages = client.pages(new Ops.GetTransList("1", 1, 2));
        assertEquals(List.of("T0", "T1", "T2", "T3", "T4"), ids(pages.items()));
        assertEquals(3, mock.requests().size(), "pages 1, 2 and 3, not a fourth");
        assertEquals(5, pages.stream().count(), "a new iteration starts again");
        List<Integer> numbers = new ArrayList<>();
        pages.forEach(p -> numbers.add(p.number()));
        assertEquals(List.of(1, 2, 3), numbers);
    }

    @Test
    void withoutATotalAShortPageIsTheLast() {
        serveFiveRows(false);
        assertEquals(5, ids(client.pages(new Ops.GetTransList("1", 1, 5)).items()).size());
        assertEquals(2, mock.requests().size(), "a full page, then an empty one");
        assertEquals(5, ids(client.pages(new Ops.GetTransList("1", 1, 3)).items()).size());
        assertEquals(4, mock.requests().size(), "3 rows, then 2 (short): done");
    }

    @Test
    void pagesAsyncCollectsTheSameItems() throws Exception {
        serveFiveRows(true);
        List<JsonValue.JsonObject> all = client.pages(new Ops.GetTransList("1", 1, 2)).collectAsync().get();
        assertEquals(List.of("T0", "T1", "T2", "T3", "T4"), ids(all));
    }

    @Test
    void anErrorEndsThePaging() {
        AtomicInteger n = new AtomicInteger();
        mock.on(Ops.GetTransList.PATH, p -> n.incrementAndGet() == 1
                ? MockAnswer.data("{\"result\":[{\"txId\":\"A\"},{\"txId\":\"B\"}]}")
                : MockAnswer.refusal("20001", "bad page"));
        var it = client.pages(new Ops.GetTransList("1", 1, 2)).items().iterator();
        assertEquals("A", it.next().getString("txId"));
        assertEquals("B", it.next().getString("txId"));
        ApiException e = assertThrows(ApiException.class, it::hasNext);
        assertEquals("20001", e.code());
    }

    static final WaitPolicy FAST = new WaitPolicy(Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofSeconds(5));

    @Test
    void waitingPollsUntilAFinalStatePastARetryableFailure() throws Exception {
        AtomicInteger n = new AtomicInteger();
        mock.on("/query/getTransResult", p -> switch (n.incrementAndGet()) {
            case 1 -> MockAnswer.data("{\"txStatus\":1}");
            case 2 -> MockAnswer.Failure.NO_ANSWER;
            default -> MockAnswer.data("{\"txStatus\":8}");
        });
        Ops.Raw query = new Ops.Raw("getTransResult", "/query/getTransResult", false, "{\"txId\":\"T\"}");
        JsonValue.JsonObject done = client.waitUntil(query,
                r -> Optional.ofNullable(Wire.text(r.get("txStatus"))), Set.of("-1", "4", "8"), FAST);
        assertEquals("8", Wire.text(done.get("txStatus")));
        n.set(0);
        JsonValue.JsonObject async = client.waitUntilAsync(query,
                r -> Optional.ofNullable(Wire.text(r.get("txStatus"))), Set.of("8"), FAST).get();
        assertEquals("8", Wire.text(async.get("txStatus")));
    }

    @Test
    void waitingEndsAtTheDeadlineWithTheLastState() {
        mock.on("/query/getTransResult", p -> MockAnswer.data("{\"txStatus\":1}"));
        Ops.Raw query = new Ops.Raw("getTransResult", "/query/getTransResult", false, "{}");
        WaitPolicy shortWait = new WaitPolicy(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(60));
        WaitDeadlineException e = assertThrows(WaitDeadlineException.class, () -> client.waitUntil(query,
                r -> Optional.ofNullable(Wire.text(r.get("txStatus"))), Set.of("8"), shortWait));
        assertEquals("1", e.lastState().orElseThrow());
        assertTrue(e.attempts() >= 1, "queries made: " + e.attempts());
        ExecutionException async = assertThrows(ExecutionException.class, () -> client.waitUntilAsync(query,
                r -> Optional.ofNullable(Wire.text(r.get("txStatus"))), Set.of("8"), shortWait).get());
        assertInstanceOf(WaitDeadlineException.class, async.getCause());
    }

    @Test
    void aPendingApplicationCarriesItsBusinessIdOrFailsNamingTheField() {
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.data("{\"txId\":\"TX9\"}"));
        Success<JsonValue.JsonObject> s = client.executeWith(ClientTest.transfer("1.00"), CallOptions.none());
        Ops.Pending pending = new Ops.Pending(client, s);
        assertEquals("TX9", pending.businessId());
        assertEquals(s.requestId(), pending.requestId());
        mock.on(Ops.ApplyForTransfer.PATH, p -> MockAnswer.data("{}"));
        Success<JsonValue.JsonObject> none = client.executeWith(ClientTest.transfer("1.00"), CallOptions.none());
        DecodeException e = assertThrows(DecodeException.class, () -> new Ops.Pending(client, none));
        assertTrue(e.getMessage().startsWith("applyForTransfer (requestId " + none.requestId() + ", 1 attempt)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("`txId`"), e.getMessage());
    }
}
