package com.baas.signing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The checks of one suite, run by a JUnit test: each check that fails prints one line naming
 * it, and {@link #finish()} fails the test with every failed check listed.
 */
final class Checks {
    /**
     * Where the shared signing vectors are, unless a test is given another path: read from
     * the repository's {@code tests/data/} (the build sets {@code baas.repo} to its root).
     */
    static final String DEFAULT_VECTORS =
            System.getProperty("baas.repo", "../..") + "/tests/data/signing-vectors.json";

    /** A piece of code under test. */
    interface Body {
        void run() throws Exception;
    }

    private final String suite;
    private final List<String> failures = new ArrayList<>();
    private int count;
    private int failed;

    Checks(String suite) {
        this.suite = suite;
    }

    /** Records a check: a failure prints {@code FAIL suite: name: detail}. */
    boolean check(String name, boolean ok, String detail) {
        count++;
        if (!ok) {
            failed++;
            failures.add(name + (detail.isEmpty() ? "" : ": " + detail));
            System.out.println("FAIL " + suite + ": " + name + (detail.isEmpty() ? "" : ": " + detail));
        }
        return ok;
    }

    boolean check(String name, boolean ok) {
        return check(name, ok, "");
    }

    boolean equal(String name, Object expected, Object actual) {
        return check(name, Objects.equals(expected, actual),
                "expected <" + expected + "> but was <" + actual + ">");
    }

    /** Runs code that must not throw; an exception is a failure naming it. */
    void run(String name, Body body) {
        try {
            body.run();
        } catch (Exception | AssertionError e) {
            check(name, false, "threw " + e);
        }
    }

    /** Runs code that must throw {@code type}; returns the exception, or null (a failure). */
    <E extends Throwable> E raises(String name, Class<E> type, Body body) {
        try {
            body.run();
        } catch (Throwable e) {
            if (type.isInstance(e)) {
                count++;
                return type.cast(e);
            }
            check(name, false, "threw " + e + " instead of " + type.getSimpleName());
            return null;
        }
        check(name, false, "did not throw " + type.getSimpleName());
        return null;
    }

    /** Prints the summary; throws an {@link AssertionError} listing the failed checks, if any. */
    void finish() {
        System.out.println(suite + ": " + count + " checks, " + failed + " failed");
        if (failed != 0) {
            throw new AssertionError(suite + ": " + failed + " of " + count + " checks failed:\n  "
                    + String.join("\n  ", failures));
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes written as characters U+0000 to U+00FF, one byte each (for invalid UTF-8). */
    static byte[] raw(String bytes) {
        return bytes.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The shared vectors, read with this library's own reader. */
    static JsonValue.JsonObject vectors(String[] args) throws Exception {
        Path path = Path.of(args.length > 0 ? args[0] : DEFAULT_VECTORS);
        return Canonical.parseLoose(Files.readAllBytes(path)).value();
    }

    /** The objects of an array member of the vectors file. */
    static List<JsonValue.JsonObject> section(JsonValue.JsonObject vectors, String name) {
        List<JsonValue.JsonObject> out = new ArrayList<>();
        if (vectors.get(name) instanceof JsonValue.JsonArray array) {
            for (JsonValue v : array.elements()) {
                out.add((JsonValue.JsonObject) v);
            }
        }
        return out;
    }
}
