package com.baas.runtime;

import com.baas.signing.JsonValue;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Hand-written operations, as generated code would write them: the runtime's tests run them
 * against MockService and the sandbox.
 */
final class Ops {
    private Ops() {
    }

    /** A response with an exact decimal, every field optional. */
    record AccountDetails(Optional<String> accountId, Optional<BigDecimal> balance, Optional<String> currency) {
        static AccountDetails decode(JsonValue data) {
            JsonValue.JsonObject o = Wire.object(data, "data");
            return new AccountDetails(
                    Optional.ofNullable(Wire.string(o.get("accountId"), "data.accountId")),
                    Optional.ofNullable(Wire.decimal(o.get("balance"), "data.balance")),
                    Optional.ofNullable(Wire.string(o.get("currency"), "data.currency")));
        }
    }

    /** A query: {@code getAccountDetails}. */
    record GetAccountDetails(String accountId) implements Operation<AccountDetails> {
        static final String PATH = "/query/getAccountDetails";

        @Override
        public String operationName() {
            return "getAccountDetails";
        }

        @Override
        public String operationPath() {
            return PATH;
        }

        @Override
        public boolean movesMoney() {
            return false;
        }

        @Override
        public void validate(Validator v) {
            FieldPath at = FieldPath.ROOT.field("accountId");
            v.required(at, accountId != null && !accountId.isEmpty());
            if (accountId != null) {
                v.maxChars(at, accountId, 32);
            }
        }

        @Override
        public void writeParams(JsonWriter w) {
            w.beginObject();
            if (accountId != null) {
                w.name("accountId").value(accountId);
            }
            w.endObject();
        }

        @Override
        public AccountDetails decodeResponse(JsonValue data) {
            return AccountDetails.decode(data);
        }
    }

    /** A call that moves money: {@code applyForTransfer} (its answer's data as received). */
    record ApplyForTransfer(String payerAccountId, String payeeBankCode, String payeeAccountId, String currency,
            BigDecimal amount, String remark) implements Operation<JsonValue.JsonObject> {
        static final String PATH = "/trans/v2/applyForTransfer";

        @Override
        public String operationName() {
            return "applyForTransfer";
        }

        @Override
        public String operationPath() {
            return PATH;
        }

        @Override
        public boolean movesMoney() {
            return true;
        }

        @Override
        public void validate(Validator v) {
            v.required(FieldPath.ROOT.field("payerAccountId"), payerAccountId != null && !payerAccountId.isEmpty());
            v.positiveAmount(FieldPath.ROOT.field("amount"), amount);
            v.decimalPlaces(FieldPath.ROOT.field("amount"), amount, 2);
            if (remark != null) {
                v.maxChars(FieldPath.ROOT.field("remark"), remark, 100);
            }
        }

        @Override
        public void writeParams(JsonWriter w) {
            w.beginObject();
            w.name("payerAccountId").value(payerAccountId);
            w.name("payeeBankCode").value(payeeBankCode);
            w.name("payeeAccountId").value(payeeAccountId);
            w.name("currency").value(currency);
            w.name("amount").decimalText(amount);
            if (remark != null) {
                w.name("remark").value(remark);
            }
            w.endObject();
        }

        @Override
        public JsonValue.JsonObject decodeResponse(JsonValue data) {
            return Wire.object(data, "data");
        }
    }

    /** Any operation with params given as JSON text and its data as received. */
    record Raw(String operationName, String operationPath, boolean movesMoney, String paramsJson)
            implements Operation<JsonValue.JsonObject> {
        @Override
        public void validate(Validator v) {
        }

        @Override
        public void writeParams(JsonWriter w) {
            w.json(com.baas.signing.Canonical.parseLoose(paramsJson.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .value());
        }

        @Override
        public JsonValue.JsonObject decodeResponse(JsonValue data) {
            return Wire.object(data, "data");
        }
    }

    /** A paged operation: {@code getTransList}, its rows as received. */
    record GetTransList(String accountId, int pageNumber, int size)
            implements PagedOperation<JsonValue.JsonObject, JsonValue.JsonObject> {
        static final String PATH = "/query/getTransList";

        @Override
        public String operationName() {
            return "getTransList";
        }

        @Override
        public String operationPath() {
            return PATH;
        }

        @Override
        public boolean movesMoney() {
            return false;
        }

        @Override
        public void validate(Validator v) {
            v.rangeInt(FieldPath.ROOT.field("pageSize"), size, 1L, 50L);
        }

        @Override
        public void writeParams(JsonWriter w) {
            w.beginObject().name("accountId").value(accountId)
                    .name("txType").beginArray().endArray().name("txStatus").beginArray().endArray()
                    .name("startTime").value(0L).name("endTime").value(4102444800000L)
                    .name("pageNo").value(pageNumber).name("pageSize").value(size).name("orderByDesc").value(1L)
                    .endObject();
        }

        @Override
        public JsonValue.JsonObject decodeResponse(JsonValue data) {
            return Wire.object(data, "data");
        }

        @Override
        public PagedOperation<JsonValue.JsonObject, JsonValue.JsonObject> withPageNumber(int page) {
            return new GetTransList(accountId, page, size);
        }

        @Override
        public OptionalInt requestedPageSize() {
            return OptionalInt.of(size);
        }

        @Override
        public List<JsonValue.JsonObject> pageItems(JsonValue.JsonObject response) {
            List<JsonValue.JsonObject> rows = Wire.list(response.get("result"), "data.result",
                    (v, at) -> Wire.object(v, at));
            return rows == null ? List.of() : rows;
        }

        @Override
        public OptionalLong pageTotal(JsonValue.JsonObject response) {
            Long total = Wire.integer(response.get("totalRows"), "data.totalRows");
            return total == null ? OptionalLong.empty() : OptionalLong.of(total);
        }
    }

    /** A hand-written OTP handle, as the generated {@code Pending} extends the runtime's. */
    static final class Pending extends PendingApplication<JsonValue.JsonObject> {
        private final RuntimeClient client;

        Pending(RuntimeClient client, Success<JsonValue.JsonObject> success) {
            super(success, success.data().getString("txId"), "txId", "applyForTransfer");
            this.client = client;
        }

        JsonValue.JsonObject sendOtp(String channel) {
            return client.execute(new Raw("sendOtp", "/common/sendOtp", false,
                    "{\"businessId\":\"" + businessId() + "\",\"otpType\":\"" + channel + "\"}"));
        }

        JsonValue.JsonObject confirm(String otp) {
            return client.execute(new Raw("confirmOperation", "/common/confirmOperation", true,
                    "{\"businessId\":\"" + businessId() + "\",\"otpCode\":\"" + otp + "\"}"));
        }
    }
}
