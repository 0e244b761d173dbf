package com.baas.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.client.Client;
import com.baas.client.Notifications;
import com.baas.client.Pending;
import com.baas.client.ResultCode;
import com.baas.client.account.GetAccountDetailsRequest;
import com.baas.client.account.QueryClosingBalanceRequest;
import com.baas.client.model.Account;
import com.baas.client.model.Currency;
import com.baas.client.model.OrderByDesc;
import com.baas.client.model.OtpType;
import com.baas.client.model.TransactionListItem;
import com.baas.client.model.TxType;
import com.baas.client.otp.ConfirmOperationRequest;
import com.baas.client.otp.SendOtpRequest;
import com.baas.client.transfers.ApplyForTransferRequest;
import com.baas.client.transfers.ApplyForTransferResponse;
import com.baas.client.transfers.GetTransListRequest;
import com.baas.client.transfers.GetTransListResponse;
import com.baas.runtime.ApiException;
import com.baas.runtime.Config;
import com.baas.runtime.InvalidRequestException;
import com.baas.runtime.Outcome;
import com.baas.runtime.OutcomeUnknownException;
import com.baas.runtime.Rule;
import com.baas.runtime.Wire;
import com.baas.runtime.testing.MockAnswer;
import com.baas.runtime.testing.MockService;
import com.baas.signing.JsonValue;
import com.baas.signing.NotificationVerifier;
import com.baas.signing.PrivateKey;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated client against MockService, as a partner's unit test uses it. */
class GeneratedClientTest {
    static final PrivateKey KEY = new PrivateKey("unit-test-key");
    final MockService mock = new MockService(KEY);
    final Client client = new Client(Config.builder("https://baas.example.com", "partner1", KEY).build(), mock);

    static ApplyForTransferRequest transfer(String amount) {
        return ApplyForTransferRequest.builder().payerAccountId("1000000001").payeeBankCode("46")
                .payeeAccountId("0712345678").currency(Currency.KES).amount(new BigDecimal(amount)).build();
    }

    @Test
    void answersAreTypedExactAndForwardCompatible() throws Exception {
        mock.on(GetAccountDetailsRequest.PATH, p -> MockAnswer.data(
                "{\"accountId\":\"1000000001\",\"balance\":\"12.30\",\"currency\":\"XAF\",\"someNewField\":{\"x\":1}}"));
        Account a = client.getAccountDetails(GetAccountDetailsRequest.builder().accountId("1000000001").build());
        assertEquals("12.30", a.balance().orElseThrow().toPlainString());
        Currency c = a.currency().orElseThrow();
        assertFalse(c.isKnown());
        assertEquals("XAF", c.wire());
        assertTrue(a.accountName().isEmpty());
        Account async = client.async().getAccountDetails(GetAccountDetailsRequest.builder().accountId("1").build()).get();
        assertEquals(a, async);
    }

    @Test
    void requestsAreWrittenExactlyAndCheckedBeforeSending() {
        mock.on(ApplyForTransferRequest.PATH, p -> MockAnswer.data("{\"txId\":\"T1\"}"));
        ApplyForTransferResponse r = client.applyForTransfer(transfer("1500.50"));
        assertEquals("T1", r.txId().orElseThrow());
        assertEquals("1500.50", mock.requests().get(0).params().getString("amount"));
        assertEquals("KES", mock.requests().get(0).params().getString("currency"));
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> client.getTransList(
                GetTransListRequest.builder().accountId("1").txType(List.of()).txStatus(List.of()).startTime(0)
                        .endTime(1).pageNo(1).pageSize(51).orderByDesc(OrderByDesc.NEWEST_FIRST).build()));
        assertEquals("pageSize", e.violations().get(0).field());
        assertEquals(Outcome.NOT_SENT, e.outcome());
        assertEquals(1, mock.requests().size());
    }

    @Test
    void anOpenValueSetTakesAnyCodeAndOneOfNarrowsARequest() {
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> client.applyForTransfer(
                ApplyForTransferRequest.builder().payerAccountId("1").payeeBankCode("46").payeeAccountId("2")
                        .currency(Currency.CNY).amount(new BigDecimal("1.00")).build()));
        assertEquals("currency", e.violations().get(0).field());
        assertEquals(Rule.ONE_OF, e.violations().get(0).rule());
        assertEquals(0, mock.requests().size());
        mock.on(GetTransListRequest.PATH, p -> MockAnswer.data(
                "{\"totalRows\":1,\"result\":[{\"txId\":\"T1\",\"txType\":\"TTID0099\"}]}"));
        GetTransListResponse page = client.getTransList(GetTransListRequest.builder().accountId("1")
                .txType(List.of(TxType.TRANSFER_OUT, TxType.of("TTID0099"))).txStatus(List.of()).startTime(0)
                .endTime(1).pageNo(1).pageSize(10).orderByDesc(OrderByDesc.NEWEST_FIRST).build());
        assertEquals(
                List.of(new JsonValue.JsonString("TTID0002"), new JsonValue.JsonString("TTID0099")),
                ((JsonValue.JsonArray) mock.requests().get(0).params().get("txType")).elements());
        TxType received = page.result().orElseThrow().get(0).txType().orElseThrow();
        assertEquals(TxType.of("TTID0099"), received);
        assertFalse(received.isKnown());
    }

    @Test
    void datesAreLocalDatesWrittenYyyyMmDd() {
        mock.on(QueryClosingBalanceRequest.PATH, p -> MockAnswer.data("{\"jobId\":\"J1\"}"));
        client.queryClosingBalance(QueryClosingBalanceRequest.builder()
                .queryDate(LocalDate.of(2026, 3, 1).minusDays(1)).build());
        assertEquals("2026-02-28", mock.requests().get(0).params().getString("queryDate"));
        assertEquals(LocalDate.of(2024, 2, 29), Wire.date(new JsonValue.JsonString("2024-02-29"), "d"));
        for (String bad : List.of("2026-02-30", "27/11/2026", "20261127", "+2026-11-27")) {
            assertThrows(RuntimeException.class, () -> Wire.date(new JsonValue.JsonString(bad), "queryDate"), bad);
        }
    }

    @Test
    void resultCodesAreTypedAndMoneyCallsAreNeverResent() {
        mock.on(ApplyForTransferRequest.PATH, p -> MockAnswer.refusal("14009", "Insufficient balance"));
        ApiException refused = assertThrows(ApiException.class, () -> client.applyForTransfer(transfer("1.00")));
        assertEquals(ResultCode.INSUFFICIENT_BALANCE, ResultCode.of(refused).orElseThrow());
        assertFalse(ResultCode.INSUFFICIENT_BALANCE.retryable());
        mock.on(ApplyForTransferRequest.PATH, p -> MockAnswer.Failure.NO_ANSWER);
        int before = mock.requests().size();
        OutcomeUnknownException unknown = assertThrows(OutcomeUnknownException.class,
                () -> client.applyForTransfer(transfer("1.00")));
        assertEquals(before + 1, mock.requests().size());
        assertEquals("applyForTransfer", unknown.operation().orElseThrow());
    }

    @Test
    void thePendingHandleSendsTheOtpAndConfirmsWithTheBusinessId() {
        mock.on(ApplyForTransferRequest.PATH, p -> MockAnswer.data("{\"txId\":\"TX7\"}"));
        mock.on(SendOtpRequest.PATH, p -> MockAnswer.ok());
        mock.on(ConfirmOperationRequest.PATH, p -> MockAnswer.ok());
        Pending<ApplyForTransferResponse> pending = client.applyForTransferPending(transfer("10.00"));
        assertEquals("TX7", pending.businessId());
        pending.sendOtp(OtpType.SMS);
        pending.confirm("123456");
        assertEquals("sms", mock.requestsOf(SendOtpRequest.PATH).get(0).params().getString("otpType"));
        assertEquals("TX7", mock.requestsOf(ConfirmOperationRequest.PATH).get(0).params().getString("businessId"));
        assertEquals("123456", mock.requestsOf(ConfirmOperationRequest.PATH).get(0).params().getString("otpCode"));
    }

    @Test
    void applicationsAreGroupedUnderOneOtp() {
        mock.on(com.baas.client.otp.GroupApplicationsRequest.PATH, p -> MockAnswer.data("{\"applicationId\":\"G1\"}"));
        mock.on(ConfirmOperationRequest.PATH, p -> MockAnswer.ok());
        var group = client.groupPending(List.of("TX1", "TX2"));
        assertEquals("G1", group.businessId());
        group.confirm("654321");
        assertEquals("[\"TX1\",\"TX2\"]", new String(new com.baas.runtime.JsonWriter()
                .json(mock.requestsOf(com.baas.client.otp.GroupApplicationsRequest.PATH).get(0).params()
                        .get("applicationIdList")).toBytes(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("G1", mock.requestsOf(ConfirmOperationRequest.PATH).get(0).params().getString("businessId"));
    }

    @Test
    void everyPageIsWalked() {
        mock.on(GetTransListRequest.PATH, p -> p.getString("accountId") != null
                && "1".equals(com.baas.runtime.Wire.text(p.get("pageNo")))
                ? MockAnswer.data("{\"totalRows\":3,\"result\":[{\"txId\":\"A\"},{\"txId\":\"B\"}]}")
                : MockAnswer.data("{\"totalRows\":3,\"result\":[{\"txId\":\"C\"}]}"));
        List<String> ids = client.getTransListPages(GetTransListRequest.builder().accountId("1").txType(List.of())
                .txStatus(List.of()).startTime(0).endTime(1).pageNo(1).pageSize(2)
                .orderByDesc(OrderByDesc.NEWEST_FIRST).build()).stream()
                .map(t -> t.txId().orElse("?")).toList();
        assertEquals(List.of("A", "B", "C"), ids);
        TransactionListItem none = TransactionListItem.decode(null, "x");
        assertEquals(null, none);
    }

    @Test
    void notificationPayloadsAreTyped() {
        NotificationVerifier verifier = new NotificationVerifier(KEY, "svc");
        byte[] body = MockService.signedNotification("0015", "N1", "svc",
                "{\"jobId\":\"J\",\"balances\":[{\"accountId\":\"1\",\"closingBalance\":\"5.10\"}]}",
                System.currentTimeMillis(), KEY);
        Notifications.Payload p = Notifications.payload(verifier.verify(body));
        Notifications.ClosingBalances c = (Notifications.ClosingBalances) p;
        assertEquals("5.10", c.params().balances().orElseThrow().get(0).closingBalance().orElseThrow().toPlainString());
        byte[] other = MockService.signedNotification("9999", "N2", "svc", "{}", System.currentTimeMillis(), KEY);
        assertTrue(Notifications.payload(verifier.verify(other)) instanceof Notifications.Other);
    }
}
