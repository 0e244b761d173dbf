// Java's signing benchmark (issue 36): the contract is bench/signing/run.py's docstring.
// Compiled and run by bench/signing/java/run against java/runtime/target/classes and Jackson.
//
//   A  com.baas.signing.Signer.verify(body, key): the SDK's verify (read, rules, canonical
//      string, SHA-256, constant-time compare)
//   B  the floor: the JDK's UTF-8 decode of the body (new String(body, UTF_8), which checks it),
//      one scanning pass over its bytes (the least any JSON reader does), and MessageDigest
//      SHA-256 of a buffer as long as the canonical string. The JDK has no JSON parser, so
//      this is the cheapest reading of the bytes the JDK alone allows, not a parse.
//   C  the signer a Java partner writes in 30 lines: Jackson's readTree, recursive flatten,
//      Collections.sort, String.join, SHA-256
//
// Time: this thread's CPU time per call (getCurrentThreadCpuTime), medians of alternating rounds.
// Memory: the bytes one call allocates (com.sun.management.ThreadMXBean), after warm-up, as a
// multiple of the body: an upper bound of its peak, measured alike for A and C.

import com.baas.runtime.Envelope;
import com.baas.signing.Canonical;
import com.baas.signing.Flattened;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import com.baas.signing.Signer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

public final class Bench {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static volatile Object sink;

    private Bench() {
    }

    // ---------------------------------------------------------------- C: the naive signer

    static String naiveSign(byte[] body, String key) throws Exception {
        JsonNode root = MAPPER.readTree(body);
        List<String> pairs = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            if (!e.getKey().equals("signature")) {
                flatten(e.getKey(), e.getValue(), pairs);
            }
        }
        pairs.add("senderKey=" + key);
        Collections.sort(pairs);
        byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest(String.join("&", pairs).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest);
    }

    static void flatten(String path, JsonNode value, List<String> out) {
        if (value.isObject()) {
            if (value.isEmpty()) {
                out.add(path + "={}");
            }
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                flatten(path + "." + e.getKey(), e.getValue(), out);
            }
        } else if (value.isArray()) {
            if (value.isEmpty()) {
                out.add(path + "=[]");
            }
            for (int i = 0; i < value.size(); i++) {
                flatten(path + "[" + i + "]", value.get(i), out);
            }
        } else if (!value.isNull()) {
            out.add(path + "=" + value.asText());
        }
    }

    // ---------------------------------------------------------------- B: the floor

    static int floor(byte[] body, byte[] canonicalSized) throws Exception {
        String text = new String(body, StandardCharsets.UTF_8);
        int tokens = 0;
        for (byte b : body) {
            if (b == '"' || b == ',' || b == ':') {
                tokens++;
            }
        }
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonicalSized);
        return tokens + text.length() + digest[0];
    }

    /** The body without its last member, {@code ,"signature":"<hex>"} (bodies.py writes it last). */
    static byte[] unsigned(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        int at = text.lastIndexOf(",\"signature\":\"");
        return (text.substring(0, at) + "}").getBytes(StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- measuring

    interface Call {
        Object run() throws Exception;
    }

    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * The CPU time of this thread running {@code n} calls: on a machine shared with other work,
     * time spent waiting for a core is not counted (GC threads' time is not either, which
     * favours C, the call that allocates most).
     */
    static long timeBatch(Call call, int n) throws Exception {
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            sink = call.run();
        }
        return THREADS.getCurrentThreadCpuTime() - start;
    }

    static long allocated(Call call) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long before = mx.getThreadAllocatedBytes(id);
            sink = call.run();
            long after = mx.getThreadAllocatedBytes(id);
            best = Math.min(best, after - before);
        }
        return best;
    }

    static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        JsonNode manifest = MAPPER.readTree(Files.readAllBytes(dir.resolve("manifest.json")));
        double seconds = Double.parseDouble(System.getenv().getOrDefault("BENCH_SECONDS", "6"));
        for (JsonNode m : manifest) {
            String name = m.get("name").asText();
            byte[] body = Files.readAllBytes(dir.resolve(m.get("file").asText()));
            String keyText = m.get("key").asText();
            String expected = m.get("signature").asText();
            PrivateKey key = new PrivateKey(keyText);
            byte[] canonicalSized = new byte[m.get("canonical_bytes").asInt()];
            Arrays.fill(canonicalSized, (byte) 'a');

            Flattened flat = Signer.verify(body, key);
            if (!expected.equals(flat.signatureHex(key)) || !expected.equals(flat.signature().orElse(null))) {
                System.err.println("java: Signer.verify disagrees with the manifest on " + name);
                System.exit(1);
            }
            if (!expected.equals(naiveSign(body, keyText))) {
                System.err.println("java: the naive signer disagrees with the manifest on " + name);
                System.exit(1);
            }
            Call a = () -> Signer.verify(body, key);
            Call b = () -> floor(body, canonicalSized);
            Call c = () -> naiveSign(body, keyText);
            Call full = () -> Signer.verify(body, key).value();
            byte[] unsigned = unsigned(body);
            Call attach = () -> Signer.attach(unsigned, key);
            if (!Arrays.equals(Signer.attach(unsigned, key), body)) {
                System.err.println("java: Signer.attach does not give the manifest's body back on " + name);
                System.exit(1);
            }

            // Warm-up (C2 compiles all three), then a batch size of about 20 ms of C.
            long warmEnd = THREADS.getCurrentThreadCpuTime() + (long) (seconds * 0.3e9);
            int n = 1;
            while (THREADS.getCurrentThreadCpuTime() < warmEnd) {
                timeBatch(a, n);
                timeBatch(b, n);
                timeBatch(c, n);
                timeBatch(full, n);
                timeBatch(attach, n);
                long t = timeBatch(c, n);
                n = t < 20_000_000L ? n * 2 : Math.max(1, n);
            }
            long perC = Math.max(1, timeBatch(c, n) / n);
            n = (int) Math.max(1, 20_000_000L / perC);
            int rounds = (int) Math.max(5, (seconds * 0.7e9) / (4.0 * n * perC + n * perC));
            long[] ta = new long[rounds];
            long[] tb = new long[rounds];
            long[] tc = new long[rounds];
            long[] tf = new long[rounds];
            long[] tt = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                ta[r] = timeBatch(a, n) / n;
                tb[r] = timeBatch(b, n) / n;
                tc[r] = timeBatch(c, n) / n;
                tf[r] = timeBatch(full, n) / n;
                tt[r] = timeBatch(attach, n) / n;
            }
            double an = median(ta);
            double bn = median(tb);
            double cn = median(tc);
            double fn = median(tf);
            double tn = median(tt);
            double memA = allocated(a) / (double) body.length;
            double memC = allocated(c) / (double) body.length;
            String floorText = "JDK alone (no JSON parser in it): new String(body, UTF_8) (its UTF-8 check), one scan "
                    + "of the bytes, MessageDigest SHA-256 of a buffer as long as the canonical string; C parses with "
                    + "Jackson " + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION + " (readTree); times: this "
                    + "thread's CPU time per call, medians of alternating rounds; memory: bytes one call allocates "
                    + "(ThreadMXBean), an upper bound of its peak";
            String note = String.format(Locale.ROOT, "%s: verify then value() (the JsonValue tree a client decodes) "
                    + "%.1f us = %.2f C; Signer.attach of the body without its signature (read back, signed, "
                    + "spliced) %.1f us = %.2f C", name, fn / 1e3, fn / cn, tn / 1e3, tn / cn);
            if (name.equals("small")) {
                note += "; " + signing(body, key, seconds);
            }
            StringBuilder line = new StringBuilder();
            line.append(String.format(Locale.ROOT, "{\"lang\":\"java\",\"body\":%s,\"a_ns\":%.0f,\"b_ns\":%.0f,"
                    + "\"c_ns\":%.0f,\"mem_a\":%.3f,\"mem_c\":%.3f,\"rounds\":%d,\"floor\":%s,\"note\":%s",
                    json(name), an, bn, cn, memA, memC, rounds, json(floorText), json(note)));
            if (an > cn) {
                line.append(",\"stops\":").append(json("the reader's one pass over the bytes and the tape it keeps "
                        + "for value(), against Jackson's tuned reader (see A/B)"));
            }
            line.append('}');
            System.out.println(line);
            System.out.flush();
        }
    }

    /**
     * The SDK's request signing (Envelope.signRequest: the envelope written, read back, signed,
     * the signature spliced in) against C on the same request.
     */
    static String signing(byte[] body, PrivateKey key, double seconds) throws Exception {
        JsonValue params = Canonical.parseLoose(body).value().get("params");
        Call sign = () -> Envelope.signRequest(w -> w.json(params), "client1", "en_KE", key, null);
        Call naive = () -> naiveSign(body, "partner-secret-key");
        int n = 200;
        long warmEnd = THREADS.getCurrentThreadCpuTime() + (long) (seconds * 0.2e9);
        while (THREADS.getCurrentThreadCpuTime() < warmEnd) {
            timeBatch(sign, n);
            timeBatch(naive, n);
        }
        int rounds = 15;
        long[] ts = new long[rounds];
        long[] tc = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            ts[r] = timeBatch(sign, n) / n;
            tc[r] = timeBatch(naive, n) / n;
        }
        return String.format(Locale.ROOT, "the client's Envelope.signRequest of this request (fresh requestId, "
                + "salt and timestamp, written, read back, signed) %.1f us = %.2f C, which only signs",
                median(ts) / 1e3, median(ts) / median(tc));
    }
}
