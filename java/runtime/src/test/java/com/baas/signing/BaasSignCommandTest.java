package com.baas.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code baas-sign} command as a partner runs it, in its own JVM: its output and its exit
 * codes through {@code main}, on the API document's worked example.
 */
class BaasSignCommandTest {
    static final String EXAMPLE = "{\"requestId\":\"APPREQ00990320fed02000\",\"sender\":\"client1\",\"locale\":\"en_KE\","
            + "\"timestamp\":1650533105687,\"salt\":\"QcEwsZ123da\",\"params\":{\"name\":\"Tester\"}}";
    static final String SIGNATURE = "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2";

    record Run(int code, String out) {
    }

    static Run run(String key, String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), BaasSign.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.remove("BAAS_PRIVATE_KEY");
        if (key != null) {
            env.put("BAAS_PRIVATE_KEY", key);
        }
        Process p = pb.start();
        p.getOutputStream().write((stdin + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return new Run(p.waitFor(), out);
    }

    @Test
    void theWorkedExampleSignsAttachesAndVerifiesWithBaasSignsExitCodes() throws Exception {
        Run sign = run("yourkey", EXAMPLE);
        assertEquals(new Run(0, "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da"
                + "&sender=client1&senderKey=[redacted]&timestamp=1650533105687\n" + SIGNATURE), sign);
        String signed = EXAMPLE.substring(0, EXAMPLE.length() - 1) + ",\"signature\":\"" + SIGNATURE + "\"}";
        assertEquals(new Run(0, signed), run("yourkey", EXAMPLE, "--attach"));
        assertEquals(new Run(0, "signature OK: " + SIGNATURE), run("yourkey", signed, "--verify"));
        assertEquals(1, run("otherkey", signed, "--verify").code(), "another key: 1");
        assertEquals(2, run(null, EXAMPLE).code(), "no key: 2");
        assertEquals(2, run("", EXAMPLE).code(), "an empty key is no key: 2");
    }
}
