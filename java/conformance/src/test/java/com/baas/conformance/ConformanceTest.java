package com.baas.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.baas.client.Client;
import com.baas.client.ResultCode;
import com.baas.client.SettlingPending;
import com.baas.client.cny.ApplyForCnyExpressRequest;
import com.baas.client.model.BeneficiaryType;
import com.baas.client.model.CnyDocumentType;
import com.baas.client.model.Currency;
import com.baas.client.model.OrderItem;
import com.baas.client.model.PaymentPurpose;
import com.baas.client.model.OrderByDesc;
import com.baas.client.model.OtpType;
import com.baas.client.model.TxStatus;
import com.baas.client.model.TxType;
import com.baas.client.otp.ConfirmOperationRequest;
import com.baas.client.otp.SendOtpRequest;
import com.baas.client.account.GetAccountDetailsRequest;
import com.baas.client.transfers.ApplyForTransferRequest;
import com.baas.client.transfers.GetTransListRequest;
import com.baas.client.transfers.GetTransResultRequest;
import com.baas.client.transfers.GetTransResultResponse;
import com.baas.client.model.Account;
import com.baas.client.model.TransactionListItem;
import com.baas.client.transfers.ApplyForTransferResponse;
import com.baas.client.transfers.GetTransListResponse;
import com.baas.runtime.ApiException;
import com.baas.runtime.BaasException;
import com.baas.runtime.Document;
import com.baas.runtime.FileProcessedIds;
import com.baas.runtime.InvalidRequestException;
import com.baas.runtime.Operation;
import com.baas.runtime.OutcomeUnknownException;
import com.baas.runtime.ProcessedIds;
import com.baas.runtime.Settlement;
import com.baas.runtime.SignatureInvalidException;
import com.baas.runtime.SignatureMissingException;
import com.baas.runtime.UntrustedException;
import com.baas.runtime.WaitPolicy;
import com.baas.runtime.testing.MockService;
import com.baas.runtime.testing.SandboxProcess;
import com.baas.signing.JsonValue;
import com.baas.signing.Notification;
import com.baas.signing.NotificationException;
import com.baas.signing.NotificationVerifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance suite (tests/conformance/scenarios/*.json, described in
 * tests/conformance/README.md) run by the generated Java client against the sandbox binary,
 * one fresh sandbox per scenario (the SDK's SandboxProcess; an OTP read from its admin API).
 * The binary is $BAAS_SANDBOX, or debug/baas-sandbox under $CARGO_TARGET_DIR or the
 * repository's target/; without it the scenarios are skipped, unless BAAS_REQUIRE_SANDBOX=1.
 */
class ConformanceTest {
    static final Path SCENARIOS = Json.REPO.resolve("tests/conformance/scenarios");
    static final WaitPolicy FAST = new WaitPolicy(Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(20));

    static Optional<Path> sandboxBinary() {
        String env = System.getenv("BAAS_SANDBOX");
        if (env != null && !env.isEmpty()) {
            return Optional.of(Path.of(env));
        }
        String target = System.getenv("CARGO_TARGET_DIR");
        for (Path dir : new Path[] {target == null ? null : Path.of(target), Json.REPO.resolve("target")}) {
            if (dir != null && Files.isExecutable(dir.resolve("debug/baas-sandbox"))) {
                return Optional.of(dir.resolve("debug/baas-sandbox"));
            }
        }
        return Optional.empty();
    }

    @TestFactory
    Stream<DynamicTest> everyScenario() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(SCENARIOS)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 10, "scenarios found: " + files);
        Optional<Path> binary = sandboxBinary();
        if (binary.isEmpty()) {
            if ("1".equals(System.getenv("BAAS_REQUIRE_SANDBOX"))) {
                fail("BAAS_REQUIRE_SANDBOX=1 and the sandbox binary is not built (cargo build -p baas-sandbox --bin baas-sandbox)");
            }
            Assumptions.abort("the sandbox binary is not built");
        }
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> scenario(binary.get(), f)));
    }

    /** One scenario's run: the client, its probe, the saved values. */
    static final class Run {
        final SandboxProcess sandbox;
        final Probe probe = new Probe();
        final Client client;
        final Map<String, String> vars = new HashMap<>();
        /** The pending applications kept by {@code "pending": name} (each an applyForTransfer). */
        final Map<String, SettlingPending<ApplyForTransferResponse, TxStatus>> pending = new HashMap<>();

        Run(SandboxProcess sandbox) {
            this.sandbox = sandbox;
            this.client = new Client(sandbox.config().retryBackoff(Duration.ofMillis(10)).build(), probe);
        }

        /** {@code ${var}} and {@code ${otp:var}} replaced in a value. */
        JsonValue substitute(JsonValue v) {
            if (v instanceof JsonValue.JsonString s && s.value().startsWith("${") && s.value().endsWith("}")) {
                String inner = s.value().substring(2, s.value().length() - 1);
                boolean otp = inner.startsWith("otp:");
                String saved = vars.get(otp ? inner.substring(4) : inner);
                assertNotNull(saved, "no saved " + inner);
                return new JsonValue.JsonString(otp ? sandbox.admin().otp(saved) : saved);
            } else if (v instanceof JsonValue.JsonObject o) {
                Map<String, JsonValue> out = new java.util.LinkedHashMap<>();
                o.members().forEach((k, x) -> out.put(k, substitute(x)));
                return new JsonValue.JsonObject(out);
            } else if (v instanceof JsonValue.JsonArray a) {
                return new JsonValue.JsonArray(a.elements().stream().map(this::substitute).toList());
            }
            return v;
        }

        /** The step's typed request, built from its wire params with the generated builders. */
        Operation<?> request(String call, JsonValue.JsonObject p) {
            return switch (call) {
                case "getAccountDetails" -> GetAccountDetailsRequest.builder().accountId(Json.str(p, "accountId")).build();
                case "applyForTransfer" -> {
                    ApplyForTransferRequest.Build b = ApplyForTransferRequest.builder()
                            .payerAccountId(Json.str(p, "payerAccountId"))
                            .payeeBankCode(Json.str(p, "payeeBankCode"))
                            .payeeAccountId(Json.str(p, "payeeAccountId"))
                            .currency(Currency.of(Json.str(p, "currency")))
                            .amount(new BigDecimal(Json.str(p, "amount")));
                    Json.opt(p, "remark").ifPresent(b::remark);
                    Json.opt(p, "payeeAccountName").ifPresent(b::payeeAccountName);
                    yield b.build();
                }
                case "sendOtp" -> SendOtpRequest.builder().businessId(Json.str(p, "businessId"))
                        .otpType(OtpType.of(Json.str(p, "otpType"))).build();
                case "confirmOperation" -> ConfirmOperationRequest.builder().businessId(Json.str(p, "businessId"))
                        .otpCode(Json.str(p, "otpCode")).build();
                case "getTransResult" -> GetTransResultRequest.builder().txId(Json.str(p, "txId")).build();
                case "getTransList" -> {
                    List<TxType> types = new ArrayList<>();
                    ((JsonValue.JsonArray) p.get("txType")).elements().forEach(e -> types.add(TxType.of(Json.text(e))));
                    List<TxStatus> statuses = new ArrayList<>();
                    ((JsonValue.JsonArray) p.get("txStatus")).elements().forEach(e -> statuses.add(TxStatus.of(Json.text(e))));
                    yield GetTransListRequest.builder().accountId(Json.str(p, "accountId")).txType(types).txStatus(statuses)
                            .startTime(Long.parseLong(Json.str(p, "startTime")))
                            .endTime(Long.parseLong(Json.str(p, "endTime")))
                            .pageNo(Integer.parseInt(Json.str(p, "pageNo")))
                            .pageSize(Integer.parseInt(Json.str(p, "pageSize")))
                            .orderByDesc(OrderByDesc.of(Json.str(p, "orderByDesc"))).build();
                }
                case "applyForCnyExpress" -> {
                    List<OrderItem> orders = new ArrayList<>();
                    for (JsonValue.JsonObject o : Json.objects(p.get("oderArray"))) {
                        orders.add(OrderItem.builder().productName(Json.str(o, "productName"))
                                .quantity(Integer.parseInt(Json.str(o, "quantity"))).amount(new BigDecimal(Json.str(o, "amount")))
                                .orderTime(Long.parseLong(Json.str(o, "orderTime"))).platform(Json.str(o, "platform")).build());
                    }
                    ApplyForCnyExpressRequest.Build b = ApplyForCnyExpressRequest.builder()
                            .payerAccountId(Json.str(p, "payerAccountId"))
                            .beneficiaryType(BeneficiaryType.of(Json.str(p, "beneficiaryType")))
                            .beneficiaryName(Json.str(p, "beneficiaryName"))
                            .beneficiaryIdNumber(Json.str(p, "beneficiaryIdNumber"))
                            .beneficiaryBankCode(Json.str(p, "beneficiaryBankCode"))
                            .beneficiaryBankName(Json.str(p, "beneficiaryBankName"))
                            .beneficiaryBankAddress(Json.str(p, "beneficiaryBankAddress"))
                            .beneficiaryAccountId(Json.str(p, "beneficiaryAccountId"))
                            .paymentPurpose(PaymentPurpose.of(Json.str(p, "paymentPurpose")))
                            .supportDocumentFile(document(Json.str(p, "supportDocumentFile")))
                            .supportDocumentType(CnyDocumentType.of(Json.str(p, "supportDocumentType")))
                            .companyRegisDocumentFile(document(Json.str(p, "companyRegisDocumentFile")))
                            .companyRegisDocumentType(CnyDocumentType.of(Json.str(p, "companyRegisDocumentType")))
                            .invoiceDocumentType(CnyDocumentType.of(Json.str(p, "invoiceDocumentType")))
                            .orderArray(orders);
                    Json.opt(p, "invoice").ifPresent(text -> b.invoice(document(text)));
                    yield b.build();
                }
                default -> throw new AssertionError("no operation " + call + " in this runner");
            };
        }

        /** A document as a scenario gives it: its Base64 text, as the wire carries it. */
        static Document document(String base64) {
            return Document.ofBytes(Base64.getDecoder().decode(base64));
        }

        /** Runs a step's call in its mode: the typed answer, or the items of every page. */
        Object call(String call, String mode, JsonValue.JsonObject p) {
            Operation<?> request = request(call, p);
            return switch (mode + " " + call) {
                case "pending applyForTransfer" -> client.applyForTransferPending((ApplyForTransferRequest) request);
                case "until_final getTransResult" -> client.getTransResultUntilFinal((GetTransResultRequest) request, FAST);
                case "pages getTransList" -> {
                    List<TransactionListItem> items = new ArrayList<>();
                    client.getTransListPages((GetTransListRequest) request).items().forEach(items::add);
                    yield items;
                }
                default -> {
                    assertEquals("call", mode, "no mode " + mode + " for " + call);
                    yield client.runtime().execute(request);
                }
            };
        }
    }

    /** A typed answer's field by its wire name, through the generated getters. */
    static String field(Object typed, String wire) {
        Object v = switch (typed.getClass().getSimpleName() + "." + wire) {
            case "Account.accountId" -> ((Account) typed).accountId();
            case "Account.currency" -> ((Account) typed).currency();
            case "Account.balance" -> ((Account) typed).balance();
            case "ApplyForTransferResponse.txId" -> ((ApplyForTransferResponse) typed).txId();
            case "GetTransListResponse.totalRows" -> ((GetTransListResponse) typed).totalRows();
            case "GetTransResultResponse.txId" -> ((GetTransResultResponse) typed).txId();
            case "GetTransResultResponse.txStatus" -> ((GetTransResultResponse) typed).txStatus();
            case "GetTransResultResponse.paymentChannel" -> ((GetTransResultResponse) typed).paymentChannel();
            case "TransactionListItem.txId" -> ((TransactionListItem) typed).txId();
            default -> throw new AssertionError("this runner reads no field " + wire + " of " + typed.getClass().getSimpleName());
        };
        return Json.text(v);
    }

    static String errorName(Throwable e) {
        if (e instanceof InvalidRequestException) {
            return "invalid_request";
        } else if (e instanceof ApiException) {
            return "api";
        } else if (e instanceof OutcomeUnknownException) {
            return "outcome_unknown";
        } else if (e instanceof SignatureMissingException) {
            return "signature_missing";
        } else if (e instanceof SignatureInvalidException) {
            return "signature_invalid";
        } else if (e instanceof UntrustedException) {
            return "untrusted";
        } else if (e instanceof NotificationException n) {
            return switch (n.kind()) {
                case UNTRUSTED -> "untrusted";
                case SIGNATURE_INVALID -> "signature_invalid";
                case SIGNATURE_MISSING -> "signature_missing";
                case MALFORMED -> "decode";
            };
        }
        return e.getClass().getSimpleName();
    }

    static void checkError(String at, BaasException e, JsonValue.JsonObject expect) {
        if (expect.get("error") != null) {
            assertEquals(Json.str(expect, "error"), errorName(e), at + ": error kind of " + e.getMessage());
        }
        if (expect.get("code") != null) {
            assertEquals(Json.str(expect, "code"), e.apiCode().orElse(null), at + ": code of " + e.getMessage());
        }
        if (expect.get("result_code") != null) {
            assertEquals(Json.str(expect, "result_code"),
                    ResultCode.of(e).map(c -> c.name().toLowerCase(Locale.ROOT)).orElse(null), at + ": typed code");
        }
        if (expect.get("retryable") != null) {
            assertEquals(Json.str(expect, "retryable"), Boolean.toString(e.isRetryable()), at + ": retryable of " + e.getMessage());
        }
        if (expect.get("violations") != null) {
            assertTrue(e instanceof InvalidRequestException, at + ": " + e.getMessage());
            List<List<String>> want = new ArrayList<>();
            ((JsonValue.JsonArray) expect.get("violations")).elements().forEach(v -> want.add(
                    ((JsonValue.JsonArray) v).elements().stream().map(Json::text).toList()));
            List<List<String>> got = ((InvalidRequestException) e).violations().stream()
                    .map(v -> List.of(v.field(), v.rule().wireName())).toList();
            assertEquals(want, got, at + ": violations");
        }
    }

    static void checkItems(String at, List<?> items, JsonValue.JsonObject expect) {
        if (expect.get("count") != null) {
            assertEquals(Json.str(expect, "count"), Integer.toString(items.size()), at + ": item count");
        }
        if (expect.get("min_count") != null) {
            assertTrue(items.size() >= Integer.parseInt(Json.str(expect, "min_count")), at + ": " + items.size() + " items");
        }
        if (expect.get("unique") != null) {
            String key = Json.str(expect, "unique");
            List<String> keys = items.stream().map(i -> field(i, key)).toList();
            assertEquals(keys.size(), new HashSet<>(keys).size(), at + ": an item twice");
        }
        if (expect.get("contains") instanceof JsonValue.JsonObject wanted) {
            assertTrue(items.stream().anyMatch(i -> wanted.members().entrySet().stream()
                    .allMatch(w -> Json.text(w.getValue()).equals(field(i, w.getKey())))), at + ": contains " + wanted);
        }
    }

    /**
     * The keys a step of each kind may have, and the keys of its {@code expect}: anything else fails
     * the scenario, so a step this runner does not understand is never skipped.
     */
    static final Map<String, List<List<String>>> KEYS = Map.of(
            "call", List.of(List.of("call", "mode", "params", "fault", "save", "pending", "expect"),
                    List.of("outcome", "sent", "fields", "error", "code", "result_code", "retryable", "violations", "items")),
            "settle", List.of(List.of("settle", "fault", "expect"),
                    List.of("settled", "state", "final", "sent", "error", "code", "retryable")),
            "notification", List.of(List.of("notification", "expect"), List.of("outcome", "error", "fields", "new")));

    static void checkKeys(String at, JsonValue.JsonObject step) {
        String kind = Stream.of("notification", "settle", "call").filter(k -> step.get(k) != null).findFirst()
                .orElseThrow(() -> new AssertionError(at + ": a step is a call, a settle or a notification: " + step));
        List<String> keys = KEYS.get(kind).get(0);
        List<String> expectKeys = KEYS.get(kind).get(1);
        step.members().keySet().forEach(k -> assertTrue(keys.contains(k), at + ": unknown step key " + k));
        if (step.get("expect") instanceof JsonValue.JsonObject e) {
            e.members().keySet().forEach(k -> assertTrue(expectKeys.contains(k), at + ": unknown expect key " + k));
        }
        Json.opt(step, "fault").ifPresent(f -> assertTrue(Probe.FAULTS.contains(f), at + ": unknown fault " + f));
    }

    /** {@code {"settle": name}}: the pending application's {@code settle()}, one lookup. */
    static void settle(Run run, String at, JsonValue.JsonObject step, JsonValue.JsonObject expect) {
        assertNotNull(expect.get("settled"), at + ": a settle step expects `settled`");
        var pending = run.pending.get(Json.str(step, "settle"));
        assertNotNull(pending, at + ": no pending application " + Json.str(step, "settle"));
        run.probe.fault = Json.str(step, "fault");
        int before = run.probe.sent;
        Settlement<TxStatus> settled;
        try {
            settled = pending.settle();
        } finally {
            run.probe.fault = null;
        }
        if (expect.get("sent") != null) {
            assertEquals(Json.str(expect, "sent"), Integer.toString(run.probe.sent - before), at + ": requests sent");
        }
        String kind;
        String state = null;
        String isFinal = null;
        if (settled instanceof Settlement.Confirmed<TxStatus> c) {
            kind = "confirmed";
            state = Json.text(c.state());
            isFinal = Boolean.toString(c.isFinal());
        } else if (settled instanceof Settlement.NotConfirmed<TxStatus> n) {
            kind = "not_confirmed";
            state = Json.text(n.state());
        } else if (settled instanceof Settlement.StillUnknown<TxStatus> u) {
            kind = "still_unknown";
            checkError(at, u.error(), expect);
        } else {
            throw new AssertionError(at + ": a settlement this runner does not know: " + settled);
        }
        assertEquals(kind.equals("not_confirmed"), settled.safeToConfirmAgain(), at + ": safeToConfirmAgain");
        assertEquals(Json.str(expect, "settled"), kind, at + ": settled " + settled);
        if (expect.get("state") != null) {
            assertEquals(Json.str(expect, "state"), state, at + ": state");
        }
        if (expect.get("final") != null) {
            assertEquals(Json.str(expect, "final"), isFinal, at + ": final");
        }
    }

    static void scenario(Path binary, Path file) throws Exception {
        JsonValue.JsonObject scenario = Json.read(file);
        String serviceSender = Json.opt(scenario, "service_sender").orElse(SandboxProcess.SERVICE_SENDER);
        Path seenFile = Files.createTempDirectory("baas-java-conformance").resolve("seen");
        try (SandboxProcess sandbox = SandboxProcess.builder().binary(binary).start()) {
            Run run = new Run(sandbox);
            NotificationVerifier verifier = new NotificationVerifier(sandbox.privateKey(), serviceSender);
            ProcessedIds seen = new FileProcessedIds(seenFile);
            List<JsonValue.JsonObject> steps = Json.objects(scenario.get("steps"));
            for (int i = 0; i < steps.size(); i++) {
                JsonValue.JsonObject step = steps.get(i);
                String at = file.getFileName() + " step " + (i + 1);
                JsonValue.JsonObject expect = step.get("expect") instanceof JsonValue.JsonObject e ? e
                        : new JsonValue.JsonObject(Map.of());
                checkKeys(at, step);
                if (step.get("settle") != null) {
                    settle(run, at, step, expect);
                    continue;
                }
                if (step.get("notification") != null) {
                    notification(run, at, (JsonValue.JsonObject) run.substitute(step.get("notification")), expect, verifier, seen);
                    continue;
                }
                String want = Json.opt(expect, "outcome").orElse("ok");
                String mode = Json.opt(step, "mode").orElse("call");
                if (step.get("pending") != null) {
                    assertEquals("call", mode, at + ": `pending` is for a plain call");
                    mode = "pending";
                }
                run.probe.fault = Json.str(step, "fault");
                int before = run.probe.sent;
                Object got = null;
                boolean failed = false;
                try {
                    JsonValue.JsonObject params = (JsonValue.JsonObject) run.substitute(
                            step.get("params") == null ? new JsonValue.JsonObject(Map.of()) : step.get("params"));
                    got = run.call(Json.str(step, "call"), mode, params);
                } catch (BaasException e) {
                    assertEquals(want, e.outcome().name().toLowerCase(Locale.ROOT), at + ": outcome of " + e.getMessage());
                    checkError(at, e, expect);
                    failed = true;
                } finally {
                    run.probe.fault = null; // never left for a later step
                }
                if (!failed) {
                    assertEquals("ok", want, at + ": succeeded with " + got);
                }
                if (expect.get("sent") != null) {
                    assertEquals(Json.str(expect, "sent"), Integer.toString(run.probe.sent - before), at + ": requests sent");
                }
                if (failed) {
                    continue;
                }
                if (got instanceof SettlingPending<?, ?> p) {
                    @SuppressWarnings("unchecked")
                    var kept = (SettlingPending<ApplyForTransferResponse, TxStatus>) p;
                    run.pending.put(Json.str(step, "pending"), kept);
                    run.vars.put(Json.str(step, "pending"), kept.businessId());
                    got = kept.response();
                }
                if (got instanceof List<?> items) {
                    checkItems(at, items, (JsonValue.JsonObject) run.substitute(
                            expect.get("items") == null ? new JsonValue.JsonObject(Map.of()) : expect.get("items")));
                    continue;
                }
                if (expect.get("fields") != null) {
                    JsonValue.JsonObject fields = (JsonValue.JsonObject) run.substitute(expect.get("fields"));
                    for (Map.Entry<String, JsonValue> f : fields.members().entrySet()) {
                        assertEquals(Json.text(f.getValue()), field(got, f.getKey()), at + ": field " + f.getKey() + " of " + got);
                    }
                }
                if (step.get("save") instanceof JsonValue.JsonObject save) {
                    for (Map.Entry<String, JsonValue> s : save.members().entrySet()) {
                        String value = field(got, Json.text(s.getValue()));
                        assertNotNull(value, at + ": no " + s.getValue() + " to save");
                        run.vars.put(s.getKey(), value);
                    }
                }
            }
        }
    }

    static void notification(Run run, String at, JsonValue.JsonObject n, JsonValue.JsonObject expect,
            NotificationVerifier verifier, ProcessedIds seen) {
        long age = n.get("age_seconds") == null ? 0 : Long.parseLong(Json.str(n, "age_seconds"));
        String requestId = Json.str(n, "requestId");
        byte[] body = MockService.signedNotification(Json.str(n, "type"), requestId, Json.str(n, "sender"),
                new String(new com.baas.runtime.JsonWriter().json(n.get("params")).toBytes(), StandardCharsets.UTF_8),
                System.currentTimeMillis() - age * 1000, run.sandbox.privateKey());
        if ("true".equals(Json.str(n, "tamper"))) {
            body = new String(body, StandardCharsets.UTF_8).replace("\"" + requestId + "\"", "\"" + requestId + "X\"")
                    .getBytes(StandardCharsets.UTF_8);
        }
        Notification got;
        try {
            got = verifier.verify(body);
        } catch (NotificationException e) {
            assertEquals("refused", Json.str(expect, "outcome"), at + ": refused: " + e.getMessage());
            if (expect.get("error") != null) {
                assertEquals(Json.str(expect, "error"), errorName(e), at + ": error kind");
            }
            return;
        }
        assertEquals("ok", Json.opt(expect, "outcome").orElse("ok"), at + ": accepted");
        if (expect.get("fields") instanceof JsonValue.JsonObject fields) {
            fields.members().forEach((k, v) -> assertEquals(Json.text(v),
                    "notificationType".equals(k) ? got.notificationType() : "requestId".equals(k) ? got.requestId() : null,
                    at + ": field " + k));
        }
        ProcessedIds.DeliveryId id = new ProcessedIds.DeliveryId(got.requestId(), got.notificationType());
        boolean fresh = seen.isNew(id);
        if (expect.get("new") != null) {
            assertEquals(Json.str(expect, "new"), Boolean.toString(fresh), at + ": is new");
        }
        if (fresh) {
            seen.record(id);
        }
        assertFalse(seen.isNew(id));
    }
}
