package com.baas.signing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A JSON value as read by {@link Canonical}: objects keep their members in document order,
 * strings are unescaped, and numbers keep the literal text they had in the bytes
 * ({@code 100.50} stays {@code 100.50}; nothing is ever read as a {@code double}).
 */
public sealed interface JsonValue
        permits JsonValue.JsonObject, JsonValue.JsonArray, JsonValue.JsonString,
                JsonValue.JsonNumber, JsonValue.JsonBoolean, JsonValue.JsonNull {

    /**
     * An object; its members in document order (a {@code null} member is kept as
     * {@link JsonNull#INSTANCE}).
     *
     * @param members the members, unmodifiable
     */
    record JsonObject(Map<String, JsonValue> members) implements JsonValue {
        /**
         * An object over a copy of {@code members}.
         *
         * @param members the members in order
         */
        public JsonObject {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
        }

        /**
         * A member, treating a {@code null} member as absent.
         *
         * @param name the member's key
         * @return the value, or {@code null} when absent or {@code null}
         */
        public JsonValue get(String name) {
            JsonValue value = members.get(name);
            return value instanceof JsonNull ? null : value;
        }

        /**
         * A string member.
         *
         * @param name the member's key
         * @return its text, or {@code null} when absent, {@code null} or not a string
         */
        public String getString(String name) {
            return get(name) instanceof JsonString s ? s.value() : null;
        }
    }

    /**
     * An array.
     *
     * @param elements the elements, unmodifiable
     */
    record JsonArray(List<JsonValue> elements) implements JsonValue {
        /**
         * An array over a copy of {@code elements}.
         *
         * @param elements the elements in order
         */
        public JsonArray {
            elements = List.copyOf(elements);
        }
    }

    /**
     * A string, unescaped.
     *
     * @param value its text
     */
    record JsonString(String value) implements JsonValue {
        /**
         * A string.
         *
         * @param value its text, not {@code null}
         */
        public JsonString {
            Objects.requireNonNull(value);
        }
    }

    /**
     * A number as the literal text it had in the body ({@code 100.50}, {@code -1.5E+3}).
     *
     * @param literal the number's JSON text
     */
    record JsonNumber(String literal) implements JsonValue {
        /**
         * A number.
         *
         * @param literal its JSON text, not {@code null}
         */
        public JsonNumber {
            Objects.requireNonNull(literal);
        }

        /**
         * The exact decimal value ({@code 100.50} keeps its scale of 2).
         *
         * @return the value as a {@link BigDecimal}
         */
        public BigDecimal bigDecimalValue() {
            return new BigDecimal(literal);
        }

        /**
         * Whether the literal is an integer written without fraction or exponent.
         *
         * @return true for {@code 12} or {@code -3}, false for {@code 1.0} or {@code 1e3}
         */
        public boolean isPlainInteger() {
            int start = literal.startsWith("-") ? 1 : 0;
            if (start == literal.length()) {
                return false;
            }
            for (int i = start; i < literal.length(); i++) {
                char c = literal.charAt(i);
                if (c < '0' || c > '9') {
                    return false;
                }
            }
            return true;
        }

        /**
         * The integer value of a {@linkplain #isPlainInteger() plain integer}.
         *
         * @return the value
         * @throws NumberFormatException when the literal is not a plain integer
         */
        public BigInteger bigIntegerValue() {
            if (!isPlainInteger()) {
                throw new NumberFormatException("not a plain integer: " + literal);
            }
            return new BigInteger(literal);
        }
    }

    /**
     * {@code true} or {@code false}.
     *
     * @param value the boolean
     */
    record JsonBoolean(boolean value) implements JsonValue {
    }

    /** {@code null}. */
    enum JsonNull implements JsonValue {
        /** The one {@code null}. */
        INSTANCE
    }
}
