package com.baas.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.client.Client;
import com.baas.client.SettlingPending;
import com.baas.client.account.GetAccountDetailsRequest;
import com.baas.client.model.Currency;
import com.baas.client.model.NetworkProvider;
import com.baas.client.model.OtpType;
import com.baas.client.model.TxStatus;
import com.baas.client.model.UtilityPaymentStatus;
import com.baas.client.transfers.ApplyForTransferRequest;
import com.baas.client.transfers.ApplyForTransferResponse;
import com.baas.client.utility.AirtimePaymentRequest;
import com.baas.runtime.Config;
import com.baas.runtime.DecodeException;
import com.baas.runtime.OutcomeUnknownException;
import com.baas.runtime.Settlement;
import com.baas.runtime.testing.MockAnswer;
import com.baas.runtime.testing.MockService;
import com.baas.runtime.testing.SandboxProcess;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Settling a confirmation whose outcome is unknown (issue 34 item 9): against the sandbox with
 * its {@code lose_request} fault (the confirmation never arrived: not confirmed, confirmed again
 * once with the same OTP) and {@code drop_answer} (it arrived: confirmed), and on MockService for
 * the lookups that say nothing.
 */
class SettleTest {
    static final String PAYER = "1000000001";
    static final String PAYEE = "1000000004";

    static ApplyForTransferRequest transfer() {
        return ApplyForTransferRequest.builder().payerAccountId(PAYER).payeeBankCode("46").payeeAccountId(PAYEE)
                .currency(Currency.KES).amount(new BigDecimal("1000.50")).build();
    }

    static SandboxProcess sandbox() {
        var binary = ConformanceTest.sandboxBinary();
        Assumptions.assumeTrue(binary.isPresent() || "1".equals(System.getenv("BAAS_REQUIRE_SANDBOX")),
                "the sandbox binary is not built");
        return SandboxProcess.builder().binary(binary.orElseThrow()).start();
    }

    static String balance(Client client, String account) {
        return client.getAccountDetails(GetAccountDetailsRequest.builder().accountId(account).build()).balance()
                .orElseThrow().toPlainString();
    }

    /** The codes of the confirmations the sandbox logged, newest first. */
    static List<String> confirmations(SandboxProcess sandbox) {
        return sandbox.admin().requests().stream()
                .filter(r -> r.get("operation") instanceof JsonValue.JsonString s && s.value().equals("confirmOperation"))
                .map(r -> ((JsonValue.JsonString) r.get("code")).value())
                .toList();
    }

    static void fault(SandboxProcess sandbox, String kind, String businessId) {
        sandbox.admin().addFaults("faults:\n  - operation: confirmOperation\n    when: { businessId: " + businessId
                + " }\n    fault: " + kind + "\n");
    }

    @Test
    void aConfirmationLostBeforeItArrivedIsNotConfirmedThenConfirmedOnceWithTheSameOtp() {
        try (SandboxProcess sandbox = sandbox(); Client client = new Client(sandbox.config().build())) {
            assertEquals("baas-sandbox", sandbox.serviceSender());
            assertEquals(SandboxProcess.SERVICE_SENDER, sandbox.serviceSender());
            List<String> before = List.of(balance(client, PAYER), balance(client, PAYEE));
            SettlingPending<ApplyForTransferResponse, TxStatus> pending = client.applyForTransferPending(transfer());
            pending.sendOtp(OtpType.SMS);
            String otp = sandbox.admin().otp(pending.businessId());
            fault(sandbox, "lose_request", pending.businessId());
            OutcomeUnknownException unknown = assertThrows(OutcomeUnknownException.class, () -> pending.confirm(otp));
            assertFalse(unknown.isRetryable());
            assertEquals(before, List.of(balance(client, PAYER), balance(client, PAYEE)));
            assertEquals(List.of("lost"), confirmations(sandbox));

            Settlement<TxStatus> settled = pending.settle();
            var notConfirmed = assertInstanceOf(Settlement.NotConfirmed.class, settled);
            assertEquals(TxStatus.SUBMITTED, notConfirmed.state());
            assertTrue(settled.safeToConfirmAgain());
            assertTrue(notConfirmed.otpRule().contains("same OTP"), notConfirmed.otpRule());
            pending.confirm(otp); // the same OTP, as the rule says
            assertEquals(new Settlement.Confirmed<>(TxStatus.SUCCEEDED, true), pending.settle());
            assertEquals(List.of("248999.50", "101000.50"), List.of(balance(client, PAYER), balance(client, PAYEE)));
            assertEquals(List.of("00000", "lost"), confirmations(sandbox));
        }
    }

    @Test
    void aConfirmationWhoseAnswerWasLostIsConfirmedAndAPaymentSettlesByItsQuery() {
        try (SandboxProcess sandbox = sandbox(); Client client = new Client(sandbox.config().build())) {
            var pending = client.async().applyForTransferPending(transfer()).join();
            pending.sendOtp(OtpType.SMS);
            fault(sandbox, "drop_answer", pending.businessId());
            assertThrows(OutcomeUnknownException.class, () -> pending.confirm(sandbox.admin().otp(pending.businessId())));
            Settlement<TxStatus> settled = pending.settleAsync().join();
            assertEquals(new Settlement.Confirmed<>(TxStatus.SUCCEEDED, true), settled);
            assertFalse(settled.safeToConfirmAgain());
            assertEquals("248999.50", balance(client, PAYER));
            assertEquals(List.of("00000"), confirmations(sandbox));

            var payment = client.airtimePaymentPending(AirtimePaymentRequest.builder().accountId(PAYER)
                    .mobileNumber("254700000001").networkProvider(NetworkProvider.FIRST).amount(new BigDecimal("100"))
                    .build());
            payment.sendOtp(OtpType.SMS);
            fault(sandbox, "lose_request", payment.businessId());
            assertThrows(OutcomeUnknownException.class, () -> payment.confirm(sandbox.admin().otp(payment.businessId())));
            var paid = assertInstanceOf(Settlement.NotConfirmed.class, payment.settle());
            assertEquals(UtilityPaymentStatus.WAITING_FOR_OTP, paid.state());
        }
    }

    @Test
    void aLookupThatFailsOrSaysNothingIsStillUnknown() {
        PrivateKey key = new PrivateKey("unit-test-key");
        AtomicReference<MockAnswer> answer = new AtomicReference<>(MockAnswer.refusal("10001", "busy"));
        MockService mock = new MockService(key)
                .on("/trans/v2/applyForTransfer", p -> MockAnswer.data("{\"txId\":\"T1\"}"))
                .on("/query/getTransResult", p -> answer.get());
        Config config = Config.builder("https://baas.example.com", "partner1", key).maxRetries(0)
                .retryBackoff(Duration.ZERO).build();
        try (Client client = new Client(config, mock)) {
            var pending = client.applyForTransferPending(transfer());
            for (MockAnswer a : List.of(MockAnswer.refusal("10001", "busy"), MockAnswer.Failure.NO_ANSWER)) {
                answer.set(a);
                var unknown = assertInstanceOf(Settlement.StillUnknown.class, pending.settle());
                assertEquals("getTransResult", unknown.error().operation().orElseThrow());
                assertFalse(pending.settle().safeToConfirmAgain());
            }
            answer.set(MockAnswer.data("{\"txId\":\"T1\"}"));
            var noState = assertInstanceOf(Settlement.StillUnknown.class, pending.settle());
            assertInstanceOf(DecodeException.class, noState.error());
            assertTrue(noState.error().getMessage().contains("no state"), noState.error().getMessage());
            answer.set(MockAnswer.data("{\"txId\":\"T1\",\"txStatus\":3}"));
            var unlisted = assertInstanceOf(Settlement.StillUnknown.class, pending.settle());
            assertTrue(unlisted.error().getMessage().contains("not one this SDK lists"), unlisted.error().getMessage());
            answer.set(MockAnswer.data("{\"txId\":\"T1\",\"txStatus\":2}"));
            assertEquals(new Settlement.Confirmed<>(TxStatus.PROCESSING, false), pending.settle());
        }
    }
}
