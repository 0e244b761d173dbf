package com.baas.conformance;

import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.reducing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.client.Client;
import com.baas.client.Notifications;
import com.baas.client.ResultCode;
import com.baas.client.account.GetAccountDetailsRequest;
import com.baas.client.model.Account;
import com.baas.client.model.Currency;
import com.baas.client.model.OrderByDesc;
import com.baas.client.model.OtpType;
import com.baas.client.model.TxStatus;
import com.baas.client.model.TxType;
import com.baas.client.transfers.ApplyForTransferRequest;
import com.baas.client.transfers.GetTransListRequest;
import com.baas.client.transfers.GetTransResultRequest;
import com.baas.client.transfers.GetTransResultResponse;
import com.baas.runtime.ApiException;
import com.baas.runtime.FileProcessedIds;
import com.baas.runtime.NotificationHandler;
import com.baas.runtime.Outcome;
import com.baas.runtime.testing.MockService;
import com.baas.runtime.testing.SandboxProcess;
import com.baas.signing.NotificationException;
import com.baas.signing.NotificationVerifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The five everyday tasks of issue 31 as a partner writes them from the README (the README's
 * code is this code), run against the sandbox.
 */
class FiveTasksTest {
    static SandboxProcess sandbox;
    static Client client;

    @BeforeAll
    static void start() {
        var binary = ConformanceTest.sandboxBinary();
        Assumptions.assumeTrue(binary.isPresent() || "1".equals(System.getenv("BAAS_REQUIRE_SANDBOX")),
                "the sandbox binary is not built");
        sandbox = SandboxProcess.builder().binary(binary.orElseThrow()).start();
        client = new Client(sandbox.config().build());
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @Test
    void readABalance() {
        Account account = client.getAccountDetails(GetAccountDetailsRequest.builder().accountId("1000000001").build());
        BigDecimal balance = account.balance().orElseThrow(); // exact: 250000.00 keeps its two places
        assertEquals(2, balance.scale());
    }

    @Test
    void anOtpTransferWaitedToItsFinalState() {
        var pending = client.applyForTransferPending(ApplyForTransferRequest.builder()
                .payerAccountId("1000000001").payeeBankCode("46").payeeAccountId("1000000004")
                .currency(Currency.KES).amount(new BigDecimal("250.00"))
                .remark("invoice 42")
                .build());
        pending.sendOtp(OtpType.SMS);
        pending.confirm(sandbox.admin().otp(pending.businessId())); // your customer's OTP
        GetTransResultResponse done = client.getTransResultUntilFinal(
                GetTransResultRequest.builder().txId(pending.businessId()).build());
        assertEquals(TxStatus.SUCCEEDED, done.txStatus().orElseThrow());
    }

    @Test
    void everyPageTotalledPerType() {
        GetTransListRequest request = GetTransListRequest.builder()
                .accountId("1000000001").txType(List.of()).txStatus(List.of())
                .startTime(0).endTime(4102444800000L).pageNo(1).pageSize(1)
                .orderByDesc(OrderByDesc.NEWEST_FIRST).build();
        Map<String, BigDecimal> perType = client.getTransListPages(request).stream()
                .collect(groupingBy(t -> t.txType().map(TxType::wire).orElse("?"),
                        reducing(BigDecimal.ZERO, t -> t.amount().orElse(BigDecimal.ZERO), BigDecimal::add)));
        long rows = client.getTransList(request.withPageNumber(1)).totalRows().orElseThrow();
        assertEquals(rows, client.getTransListPages(request).stream().count());
        assertTrue(perType.values().stream().allMatch(v -> v.scale() >= 0));
    }

    @Test
    void aNotificationVerifiedAndATamperedCopyRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        List<String> closed = new ArrayList<>();
        NotificationHandler handler = new NotificationHandler(
                new NotificationVerifier(sandbox.privateKey(), "baas-sandbox"),
                new FileProcessedIds(dir.resolve("processed-ids")),
                n -> {
                    if (Notifications.payload(n) instanceof Notifications.ClosingBalances c) {
                        c.params().balances().orElse(List.of()).forEach(b -> closed.add(
                                b.accountId().orElse("?") + " " + b.closingBalance().map(BigDecimal::toPlainString).orElse("?")));
                    }
                });
        byte[] body = MockService.signedNotification("0015", "N-42", "baas-sandbox",
                "{\"jobId\":\"J1\",\"balances\":[{\"accountId\":\"1000000001\",\"closingBalance\":\"250000.00\"}]}",
                System.currentTimeMillis(), sandbox.privateKey());
        assertEquals("ok", handler.handle(body));
        assertEquals("ok", handler.handle(body)); // a re-delivery: acknowledged, not processed again
        assertEquals(List.of("1000000001 250000.00"), closed);
        byte[] tampered = new String(body, StandardCharsets.UTF_8).replace("250000.00", "950000.00")
                .getBytes(StandardCharsets.UTF_8);
        assertThrows(NotificationException.class, () -> handler.handle(tampered));
        assertTrue(Files.size(dir.resolve("processed-ids")) > 0);
    }

    @Test
    void aRefusedTransferHandled() {
        ApiException e = assertThrows(ApiException.class, () -> client.applyForTransfer(ApplyForTransferRequest.builder()
                .payerAccountId("1000000003").payeeBankCode("46").payeeAccountId("1000000004")
                .currency(Currency.KES).amount(new BigDecimal("99999999.00")).build()));
        assertEquals(ResultCode.INSUFFICIENT_BALANCE, ResultCode.of(e).orElseThrow());
        assertEquals(Outcome.REFUSED, e.outcome());
    }
}
