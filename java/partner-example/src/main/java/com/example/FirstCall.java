package com.example;

import com.baas.client.Client;
import com.baas.client.account.GetAccountDetailsRequest;
import com.baas.client.model.Currency;
import com.baas.client.model.OtpType;
import com.baas.client.model.TxStatus;
import com.baas.client.transfers.ApplyForTransferRequest;
import com.baas.client.transfers.GetTransResultRequest;
import com.baas.client.transfers.GetTransResultResponse;
import com.baas.runtime.testing.SandboxProcess;
import java.math.BigDecimal;

/**
 * A partner's first program: a balance, and an OTP-confirmed transfer waited to its final
 * state, against the sandbox ($BAAS_SANDBOX). Exits non-zero when anything is not as expected.
 */
public final class FirstCall {
    private FirstCall() {
    }

    public static void main(String[] args) {
        try (SandboxProcess sandbox = SandboxProcess.builder().start();
             Client client = new Client(sandbox.config().build())) {
            GetAccountDetailsRequest payer = GetAccountDetailsRequest.builder().accountId("1000000001").build();
            BigDecimal before = client.getAccountDetails(payer).balance().orElseThrow();
            var pending = client.applyForTransferPending(ApplyForTransferRequest.builder()
                    .payerAccountId("1000000001").payeeBankCode("46").payeeAccountId("1000000004")
                    .currency(Currency.KES).amount(new BigDecimal("250.00"))
                    .remark("partner example")
                    .build());
            pending.sendOtp(OtpType.SMS);
            pending.confirm(sandbox.admin().otp(pending.businessId()));
            GetTransResultResponse done = client.getTransResultUntilFinal(
                    GetTransResultRequest.builder().txId(pending.businessId()).build());
            BigDecimal after = client.getAccountDetails(payer).balance().orElseThrow();
            if (!done.txStatus().orElseThrow().equals(TxStatus.SUCCEEDED)
                    || after.compareTo(before.subtract(new BigDecimal("250.00"))) != 0) {
                System.err.println("unexpected: " + done + ", balance " + before + " -> " + after);
                System.exit(1);
            }
            System.out.println("partner example (baas-client " + Client.VERSION + " from ~/.m2): transfer "
                    + pending.businessId() + " " + done.txStatus().orElseThrow().wire() + ", balance " + before
                    + " -> " + after);
        }
    }
}
