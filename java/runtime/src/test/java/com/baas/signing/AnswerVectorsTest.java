package com.baas.signing;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * The shared vectors of answers bound to their request ({@code answers}: a mismatched
 * requestId echo, a notification or a request given as an answer, a success altered or
 * unsigned) and of the one {@code notificationType} rule ({@code notification_types}: a
 * JSON string, any number refused). Argument: the vectors file.
 */
public final class AnswerVectorsTest {
    AnswerVectorsTest() {
    }

    /** Runs every check of this suite under JUnit; a failure lists each failed check. */
    @Test
    void everyCheck() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) throws Exception {
        Checks c = new Checks("AnswerVectorsTest");
        JsonValue.JsonObject vectors = Checks.vectors(args);
        List<JsonValue.JsonObject> answers = Checks.section(vectors, "answers");
        List<JsonValue.JsonObject> types = Checks.section(vectors, "notification_types");
        c.check("the vectors are there", answers.size() >= 13 && types.size() >= 9,
                answers.size() + " answers, " + types.size() + " notification_types");
        for (JsonValue.JsonObject v : answers) {
            String name = "answers \"" + v.getString("name") + "\"";
            PrivateKey key = new PrivateKey(v.getString("key"));
            byte[] body = Checks.utf8(v.getString("body"));
            JsonValue.JsonObject expect = (JsonValue.JsonObject) v.get("expect");
            c.equal(name, describe(expect), outcome(body, v.getString("request_id"), key));
        }
        for (JsonValue.JsonObject v : types) {
            String name = "notification_types \"" + v.getString("name") + "\"";
            NotificationVerifier verifier = new NotificationVerifier(new PrivateKey(v.getString("key")),
                    v.getString("service_sender"));
            JsonValue.JsonObject expect = (JsonValue.JsonObject) v.get("expect");
            long now = ((JsonValue.JsonNumber) v.get("now_ms")).bigIntegerValue().longValueExact();
            String got;
            try {
                got = "accepted " + verifier.verify(Checks.utf8(v.getString("body")), now).notificationType();
            } catch (NotificationException e) {
                got = "refused";
            }
            String expected = expect.getString("outcome").equals("accepted")
                    ? "accepted " + expect.getString("notification_type") : "refused";
            c.equal(name, expected, got);
        }
        c.finish();
    }

    /** What {@link Signer#verifyAnswer} did, in the vectors' words. */
    private static String outcome(byte[] body, String requestId, PrivateKey key) {
        try {
            Answer answer = Signer.verifyAnswer(body, requestId, key);
            return answer.success() ? "success" : "failure " + answer.code() + " verified=" + answer.verified();
        } catch (VerifyException e) {
            return "refused " + switch (e.kind()) {
                case REQUEST_ID_MISMATCH -> "request_id_mismatch";
                case WRONG_KIND -> "wrong_kind";
                case MISSING -> "signature_missing";
                case MISMATCH -> "signature_invalid";
                case MALFORMED -> "malformed";
            };
        }
    }

    private static String describe(JsonValue.JsonObject expect) {
        return switch (expect.getString("outcome")) {
            case "success" -> "success";
            case "failure" -> "failure " + expect.getString("code") + " verified="
                    + ((JsonValue.JsonBoolean) expect.get("verified")).value();
            default -> "refused " + expect.getString("refusal");
        };
    }
}
