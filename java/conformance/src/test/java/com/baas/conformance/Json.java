package com.baas.conformance;

import com.baas.runtime.ValueSet;
import com.baas.signing.Canonical;
import com.baas.signing.JsonValue;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reading the scenario files with the runtime's own lossless reader. */
final class Json {
    private Json() {
    }

    static final Path REPO = Path.of(System.getProperty("baas.repo", "../.."));

    static JsonValue.JsonObject read(Path file) throws IOException {
        return Canonical.parseLoose(Files.readAllBytes(file)).value();
    }

    static List<JsonValue.JsonObject> objects(JsonValue v) {
        List<JsonValue.JsonObject> out = new ArrayList<>();
        if (v instanceof JsonValue.JsonArray a) {
            for (JsonValue e : a.elements()) {
                out.add((JsonValue.JsonObject) e);
            }
        }
        return out;
    }

    /** A value as the scenarios compare it: its text. */
    static String text(Object v) {
        Object x = v instanceof Optional<?> o ? o.orElse(null) : v;
        if (x == null) {
            return null;
        } else if (x instanceof ValueSet s) {
            return s.wire();
        } else if (x instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (x instanceof JsonValue j) {
            String t = com.baas.runtime.Wire.text(j);
            return t == null ? j.toString() : t;
        }
        return x.toString();
    }

    static String str(JsonValue.JsonObject o, String name) {
        return text(o.get(name));
    }

    static Optional<String> opt(JsonValue.JsonObject o, String name) {
        return Optional.ofNullable(str(o, name));
    }
}
