package com.baas.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} example of java/README.md and of the root README's Java SDK section
 * compiles against the generated client, each in a method of its own, given the names the
 * README's prose assumes (a key, a client, a request, ...). The Spring controller alone is
 * left out (Spring is not a dependency here); it is named so that the count below fails if
 * another block goes missing.
 */
class ReadmeExamplesTest {
    @TempDir
    Path out;

    static final String IMPORTS = """
            import static java.nio.charset.StandardCharsets.UTF_8;
            import static java.util.stream.Collectors.groupingBy;
            import static java.util.stream.Collectors.reducing;
            import com.baas.client.*;
            import com.baas.client.account.*;
            import com.baas.client.model.*;
            import com.baas.client.otp.*;
            import com.baas.client.transfers.*;
            import com.baas.runtime.*;
            import com.baas.runtime.testing.*;
            import com.baas.signing.NotificationException;
            import com.baas.signing.NotificationVerifier;
            import com.baas.signing.PrivateKey;
            import com.sun.net.httpserver.HttpServer;
            import java.math.BigDecimal;
            import java.net.InetSocketAddress;
            import java.nio.file.Path;
            import java.time.Duration;
            import java.util.List;
            import java.util.Map;
            import java.util.Optional;
            """;

    static final String GIVEN = """
                PrivateKey key;
                Config config;
                Client client;
                String otpFromYourCustomer;
                ApplyForTransferRequest request;
                SettlingPending<ApplyForTransferResponse, TxStatus> pending;
                GetTransListRequest listRequest;
                String txId1;
                String txId2;
                NotificationHandler handler;
                void log(String text) { }
                void reconcile(String requestId) { }
                void book(Optional<String> accountId, Optional<BigDecimal> amount) { }
            """;

    static List<String> blocks(Path file, String fromHeading, String toHeading) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (fromHeading != null) {
            int from = text.indexOf(fromHeading);
            int to = text.indexOf(toHeading, from + 1);
            text = text.substring(from, to < 0 ? text.length() : to);
        }
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    String compile(List<String> bodies) throws Exception {
        StringBuilder source = new StringBuilder(IMPORTS).append("class Examples {\n").append(GIVEN);
        for (int i = 0; i < bodies.size(); i++) {
            source.append("    void example").append(i).append("() throws Exception {\n")
                    .append(bodies.get(i)).append("\n    }\n");
        }
        String text = source.append("}\n").toString();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "a JDK, not a JRE");
        SimpleJavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Examples.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }
        };
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(errors, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(), "-Xlint:all"), null,
                List.of(file)).call();
        return ok ? "" : errors + "\n" + text;
    }

    @Test
    void theJavaReadmesExamplesCompile() throws Exception {
        List<String> all = new ArrayList<>(blocks(Json.REPO.resolve("java/README.md"), null, null));
        all.addAll(blocks(Json.REPO.resolve("README.md"), "## Java SDK", "\n## "));
        List<String> compiled = new ArrayList<>();
        int spring = 0;
        for (String block : all) {
            int cut = block.indexOf("// The same in a Spring controller:");
            if (cut >= 0) {
                spring++;
                block = block.substring(0, cut);
            }
            // A block's own imports go with the file's (they are the same packages).
            compiled.add(block.lines().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n")));
        }
        assertEquals(1, spring, "the Spring controller example is where it was");
        assertTrue(compiled.size() >= 8, compiled.size() + " examples found");
        assertEquals("", compile(compiled));
    }
}
