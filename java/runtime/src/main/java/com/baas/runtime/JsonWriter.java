package com.baas.runtime;

import com.baas.signing.JsonValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;

/**
 * Writes the JSON the client sends, compactly, as the exact bytes that are then signed and
 * sent (nothing re-renders them). Generated code writes a request's {@code params} with it:
 * <pre>{@code
 * w.beginObject();
 * w.name("amount").value(new BigDecimal("1500.50"));   // written 1500.50, never through a double
 * w.endObject();
 * }</pre>
 * Money is written with its exact text ({@link #value(BigDecimal)} writes a JSON number,
 * {@link #decimalText(BigDecimal)} the text where the wire wants a string); a {@code null} is
 * never written. A string holding a lone surrogate (not text) is an {@link EncodeException}.
 */
public final class JsonWriter {
    /** The text written (a plain buffer: ByteArrayOutputStream locks on every write). */
    private final Buffer out = new Buffer();
    /** One entry per open object or array: whether it has a member or element yet. */
    private final Deque<boolean[]> open = new ArrayDeque<>();
    private boolean afterName;

    /** An empty writer. */
    public JsonWriter() {
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        boolean[] top = open.peek();
        if (top != null) {
            if (top[0]) {
                out.write(',');
            }
            top[0] = true;
        } else if (out.size() > 0) {
            throw new IllegalStateException("a JSON text holds one value");
        }
    }

    /**
     * Opens an object.
     *
     * @return this writer
     */
    public JsonWriter beginObject() {
        beforeValue();
        out.write('{');
        open.push(new boolean[] {false});
        return this;
    }

    /**
     * Closes the innermost object.
     *
     * @return this writer
     */
    public JsonWriter endObject() {
        open.pop();
        out.write('}');
        return this;
    }

    /**
     * Opens an array.
     *
     * @return this writer
     */
    public JsonWriter beginArray() {
        beforeValue();
        out.write('[');
        open.push(new boolean[] {false});
        return this;
    }

    /**
     * Closes the innermost array.
     *
     * @return this writer
     */
    public JsonWriter endArray() {
        open.pop();
        out.write(']');
        return this;
    }

    /**
     * Writes a member's name; its value follows.
     *
     * @param name the member's wire name
     * @return this writer
     */
    public JsonWriter name(String name) {
        beforeValue();
        writeString(name);
        out.write(':');
        afterName = true;
        return this;
    }

    /**
     * A string.
     *
     * @param value the text
     * @return this writer
     */
    public JsonWriter value(String value) {
        beforeValue();
        writeString(value);
        return this;
    }

    /**
     * A JSON number with the decimal's exact text ({@code 1500.50} stays {@code 1500.50}).
     *
     * @param value the number
     * @return this writer
     */
    public JsonWriter value(BigDecimal value) {
        beforeValue();
        writeRaw(value.toPlainString());
        return this;
    }

    /**
     * The decimal's exact text as a JSON string ({@code "1500.50"}).
     *
     * @param value the amount
     * @return this writer
     */
    public JsonWriter decimalText(BigDecimal value) {
        return value(value.toPlainString());
    }

    /**
     * An integer.
     *
     * @param value the number
     * @return this writer
     */
    public JsonWriter value(long value) {
        beforeValue();
        writeRaw(Long.toString(value));
        return this;
    }

    /**
     * A JSON number from its text (an integer value set's wire value).
     *
     * @param literal the number's text, e.g. {@code 8}
     * @return this writer
     * @throws EncodeException when the text is not a JSON number
     */
    public JsonWriter number(String literal) {
        if (!literal.matches("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")) {
            throw new EncodeException("'" + literal + "' is not a number, and this value set is sent as one");
        }
        beforeValue();
        writeRaw(literal);
        return this;
    }

    /**
     * {@code true} or {@code false}.
     *
     * @param value the boolean
     * @return this writer
     */
    public JsonWriter value(boolean value) {
        beforeValue();
        writeRaw(value ? "true" : "false");
        return this;
    }

    /**
     * A JSON value as read by the lossless reader (numbers keep their text); a {@code null}
     * object member is left out, a {@code null} elsewhere is an {@link EncodeException}.
     *
     * @param value the value
     * @return this writer
     */
    public JsonWriter json(JsonValue value) {
        if (value instanceof JsonValue.JsonObject o) {
            beginObject();
            for (Map.Entry<String, JsonValue> m : o.members().entrySet()) {
                if (!(m.getValue() instanceof JsonValue.JsonNull)) {
                    name(m.getKey()).json(m.getValue());
                }
            }
            return endObject();
        } else if (value instanceof JsonValue.JsonArray a) {
            beginArray();
            for (JsonValue e : a.elements()) {
                json(e);
            }
            return endArray();
        } else if (value instanceof JsonValue.JsonString s) {
            return value(s.value());
        } else if (value instanceof JsonValue.JsonNumber n) {
            beforeValue();
            writeRaw(n.literal());
            return this;
        } else if (value instanceof JsonValue.JsonBoolean b) {
            return value(b.value());
        }
        throw new EncodeException("a null is never sent (leave the field out)");
    }

    /**
     * The bytes written.
     *
     * @return a copy of the JSON text, UTF-8
     * @throws IllegalStateException when an object or array is still open
     */
    public byte[] toBytes() {
        if (!open.isEmpty() || afterName) {
            throw new IllegalStateException("an object or array is still open");
        }
        return out.toByteArray();
    }

    private void writeRaw(String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }

    private void writeString(String s) {
        // Most strings need no escape and hold no surrogate: their UTF-8, written as it is.
        boolean plain = true;
        for (int i = 0; i < s.length() && plain; i++) {
            char c = s.charAt(i);
            plain = c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c);
        }
        if (plain) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            out.write('"');
            out.write(bytes, 0, bytes.length);
            out.write('"');
            return;
        }
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        throw new EncodeException("a string holds a lone surrogate (U+"
                                + String.format("%04X", (int) c) + "), which is not text");
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        byte[] bytes = b.append('"').toString().getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
    }

    /** A growable byte buffer, without the locking of {@code ByteArrayOutputStream}. */
    private static final class Buffer {
        private byte[] bytes = new byte[256];
        private int size;

        void write(int b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
            }
            bytes[size++] = (byte) b;
        }

        void write(byte[] b, int from, int length) {
            if (size + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
            }
            System.arraycopy(b, from, bytes, size, length);
            size += length;
        }

        int size() {
            return size;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
