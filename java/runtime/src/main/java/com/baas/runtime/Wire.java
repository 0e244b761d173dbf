package com.baas.runtime;

import com.baas.signing.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reading the verified answer's tree into typed values, for generated response types. Lenient
 * where the API document is loose (a string may arrive as an integer, an integer as a string
 * of digits), never failing on a member or a value-set value it does not know; a value of
 * another shape is a {@link DecodeException} naming its path ({@code data.balance}). A
 * {@code null} or absent value reads as {@code null}, which the types show as empty.
 */
public final class Wire {
    private static final Pattern INTEGER = Pattern.compile("-?(?:0|[1-9][0-9]*)");
    private static final Pattern DECIMAL = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    private static final JsonValue.JsonObject EMPTY = new JsonValue.JsonObject(Map.of());

    private Wire() {
    }

    /**
     * Reads one value at a path.
     *
     * @param <T> what it reads
     */
    @FunctionalInterface
    public interface Reader<T> {
        /**
         * Reads a value.
         *
         * @param value the value, or {@code null} when absent
         * @param at its path, for errors
         * @return the typed value, or {@code null} when absent
         * @throws DecodeException when the value has another shape
         */
        T read(JsonValue value, String at);
    }

    private static DecodeException shape(String at, String expected, JsonValue got) {
        String what = got instanceof JsonValue.JsonObject ? "an object"
                : got instanceof JsonValue.JsonArray ? "an array"
                : got instanceof JsonValue.JsonString ? "a string"
                : got instanceof JsonValue.JsonNumber n ? "the number " + n.literal()
                : got instanceof JsonValue.JsonBoolean ? "a boolean" : "null";
        return new DecodeException("`" + at + "` should be " + expected + ", not " + what);
    }

    /**
     * An object; absent reads as an empty object (an absent {@code data}).
     *
     * @param value the value
     * @param at its path
     * @return the object
     */
    public static JsonValue.JsonObject object(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return EMPTY;
        }
        if (value instanceof JsonValue.JsonObject o) {
            return o;
        }
        throw shape(at, "an object", value);
    }

    /**
     * A member of an object ({@code null} when absent or {@code null}).
     *
     * @param object the object
     * @param name the member's wire name
     * @return the value, or {@code null}
     */
    public static JsonValue member(JsonValue.JsonObject object, String name) {
        return object.get(name);
    }

    /**
     * A string; also an integer (its digits) or a boolean.
     *
     * @param value the value
     * @param at its path
     * @return the text, or {@code null}
     */
    public static String string(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        } else if (value instanceof JsonValue.JsonString s) {
            return s.value();
        } else if (value instanceof JsonValue.JsonNumber n && n.isPlainInteger()) {
            return n.literal();
        } else if (value instanceof JsonValue.JsonBoolean b) {
            return Boolean.toString(b.value());
        }
        throw shape(at, "a string", value);
    }

    /**
     * A 64-bit integer; also a string of digits.
     *
     * @param value the value
     * @param at its path
     * @return the integer, or {@code null}
     */
    public static Long integer(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        }
        String text = value instanceof JsonValue.JsonNumber n ? n.literal()
                : value instanceof JsonValue.JsonString s ? s.value() : null;
        if (text != null && INTEGER.matcher(text).matches()) {
            BigInteger big = new BigInteger(text);
            if (big.bitLength() < 64) {
                return big.longValue();
            }
        }
        throw shape(at, "an integer within 64 bits", value);
    }

    /**
     * A 32-bit integer; also a string of digits.
     *
     * @param value the value
     * @param at its path
     * @return the integer, or {@code null}
     */
    public static Integer int32(JsonValue value, String at) {
        Long n = integer(value, at);
        if (n == null) {
            return null;
        }
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw shape(at, "an integer within 32 bits", value);
        }
        return n.intValue();
    }

    /**
     * An exact decimal from a number's literal text or a string ({@code "100.50"} keeps its
     * scale of 2); never through a {@code double}.
     *
     * @param value the value
     * @param at its path
     * @return the decimal, or {@code null}
     */
    public static BigDecimal decimal(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        }
        String text = value instanceof JsonValue.JsonNumber n ? n.literal()
                : value instanceof JsonValue.JsonString s ? s.value() : null;
        if (text != null && DECIMAL.matcher(text).matches()) {
            try {
                return new BigDecimal(text);
            } catch (NumberFormatException | ArithmeticException e) {
                throw shape(at, "a decimal number within range", value);
            }
        }
        throw shape(at, "a decimal number", value);
    }

    /**
     * {@code true} or {@code false}.
     *
     * @param value the value
     * @param at its path
     * @return the boolean, or {@code null}
     */
    public static Boolean bool(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        } else if (value instanceof JsonValue.JsonBoolean b) {
            return b.value();
        }
        throw shape(at, "a boolean", value);
    }

    /**
     * A received day of the calendar: exactly the string {@code YYYY-MM-DD} naming a real day
     * (another format is refused, never a day guessed; decision {@code date-type}).
     *
     * @param value the value
     * @param at its path, for errors
     * @return the day, or {@code null} when absent
     */
    public static LocalDate date(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        } else if (value instanceof JsonValue.JsonString s && DATE.matcher(s.value()).matches()) {
            String t = s.value();
            try {
                return LocalDate.of(Integer.parseInt(t.substring(0, 4)), Integer.parseInt(t.substring(5, 7)),
                        Integer.parseInt(t.substring(8, 10)));
            } catch (DateTimeException e) {
                throw shape(at, "a date YYYY-MM-DD of the calendar", value);
            }
        }
        throw shape(at, "a date YYYY-MM-DD", value);
    }

    /**
     * A received document: Base64 text, read leniently ({@link Document#ofReceivedText}: text
     * that is not Base64 is kept as its bytes, never an error; decision {@code document-type}).
     *
     * @param value the value
     * @param at its path, for errors
     * @return the document, or {@code null} when absent
     */
    public static Document document(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        } else if (value instanceof JsonValue.JsonString s) {
            return Document.ofReceivedText(s.value());
        }
        throw shape(at, "a document as Base64 text", value);
    }

    /**
     * A day of the calendar as sent: {@code YYYY-MM-DD}.
     *
     * @param day the day (years 1 to 9999)
     * @return its text
     * @throws IllegalArgumentException for a year outside 1 to 9999, which the wire cannot hold
     */
    public static String dateText(LocalDate day) {
        if (day.getYear() < 1 || day.getYear() > 9999) {
            throw new IllegalArgumentException(day + " is outside years 0001 to 9999");
        }
        return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", day.getYear(), day.getMonthValue(),
                day.getDayOfMonth());
    }

    /**
     * A received scalar whose JSON type the spec does not show, as its text: a string as it
     * is, a number as its literal text (never through a {@code double}), a boolean as
     * {@code true}/{@code false}.
     *
     * @param value the value
     * @param at its path
     * @return the text, or {@code null}
     */
    public static String scalar(JsonValue value, String at) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        }
        String text = text(value);
        if (text == null) {
            throw shape(at, "a string, number or boolean", value);
        }
        return text;
    }

    /**
     * Any JSON value, as received.
     *
     * @param value the value
     * @param at its path
     * @return the value, or {@code null}
     */
    public static JsonValue json(JsonValue value, String at) {
        return value instanceof JsonValue.JsonNull ? null : value;
    }

    /**
     * A value of a value set, from its wire text (a string, or an integer as its digits); a
     * value the set does not know is kept by {@code of}.
     *
     * @param <T> the value set
     * @param value the value
     * @param at its path
     * @param of the value set's {@code of(String)}
     * @return the value, or {@code null}
     */
    public static <T> T valueOf(JsonValue value, String at, Function<String, T> of) {
        String text = value instanceof JsonValue.JsonNumber n && !n.isPlainInteger() ? null : string(value, at);
        if (text == null && value != null && !(value instanceof JsonValue.JsonNull)) {
            throw shape(at, "a value-set value", value);
        }
        return text == null ? null : of.apply(text);
    }

    /**
     * A value read by a {@link Reader} (a value set's or a list's, as generated code builds
     * them).
     *
     * @param <T> what it reads
     * @param value the value
     * @param at its path
     * @param reader how it is read
     * @return the typed value, or {@code null}
     */
    public static <T> T readWith(JsonValue value, String at, Reader<T> reader) {
        return reader.read(value, at);
    }

    /**
     * An array read item by item; {@code null} items are left out.
     *
     * @param <T> the item type
     * @param value the value
     * @param at its path
     * @param item how one item is read
     * @return an unmodifiable list, or {@code null}
     */
    public static <T> List<T> list(JsonValue value, String at, Reader<T> item) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return null;
        }
        if (!(value instanceof JsonValue.JsonArray array)) {
            throw shape(at, "an array", value);
        }
        List<T> out = new ArrayList<>(array.elements().size());
        for (int i = 0; i < array.elements().size(); i++) {
            T t = item.read(array.elements().get(i), at + "[" + i + "]");
            if (t != null) {
                out.add(t);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * The wire text of a value in an answer, as the conformance scenarios compare it: a string
     * as it is, a number as its literal text, a boolean as {@code true}/{@code false}.
     *
     * @param value the value
     * @return the text, or {@code null} for an absent value, an object or an array
     */
    public static String text(JsonValue value) {
        if (value instanceof JsonValue.JsonString s) {
            return s.value();
        } else if (value instanceof JsonValue.JsonNumber n) {
            return n.literal();
        } else if (value instanceof JsonValue.JsonBoolean b) {
            return Boolean.toString(b.value());
        }
        return null;
    }
}
