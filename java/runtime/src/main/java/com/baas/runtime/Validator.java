package com.baas.runtime;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The checks generated code calls before a request is signed, one method per rule kind of the
 * spec (named as the rule registry names them: {@code max_chars} is {@link #maxChars}). Every
 * check takes the {@link FieldPath} of the value it checks; every violation of one request is
 * collected and {@link #finish()} reports them together, each naming its field and rule.
 */
public final class Validator {
    private final List<Violation> violations = new ArrayList<>();

    /** An empty validator. */
    public Validator() {
    }

    /**
     * A field and whether it is present, for the rules across fields.
     *
     * @param name the field's wire name
     * @param present whether it is set (and, for text, not empty)
     */
    public record Presence(String name, boolean present) {
    }

    /**
     * A field's presence, for {@link #atLeastOneOf} and {@link #exactlyOneOf}.
     *
     * @param name the field's wire name
     * @param present whether it is set
     * @return the presence
     */
    public static Presence present(String name, boolean present) {
        return new Presence(name, present);
    }

    private void push(FieldPath at, Rule rule, String message) {
        violations.add(new Violation(at.toString(), rule, message));
    }

    // ---- strings ----

    /**
     * At most {@code max} characters (Unicode code points).
     *
     * @param at the value's path
     * @param value the value
     * @param max the most characters allowed
     */
    public void maxChars(FieldPath at, String value, long max) {
        int n = value.codePointCount(0, value.length());
        if (n > max) {
            push(at, Rule.MAX_CHARS, "has " + n + " characters, at most " + max + " allowed");
        }
    }

    /**
     * At least {@code min} characters.
     *
     * @param at the value's path
     * @param value the value
     * @param min the fewest characters allowed
     */
    public void minChars(FieldPath at, String value, long min) {
        int n = value.codePointCount(0, value.length());
        if (n < min) {
            push(at, Rule.MIN_CHARS, "has " + n + " characters, at least " + min + " required");
        }
    }

    /**
     * ASCII letters and digits only.
     *
     * @param at the value's path
     * @param value the value
     */
    public void alphanumeric(FieldPath at, String value) {
        for (int i = 0; i < value.length(); i = value.offsetByCodePoints(i, 1)) {
            int c = value.codePointAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                push(at, Rule.ALPHANUMERIC, "must contain only ASCII letters and digits, found '"
                        + new String(Character.toChars(c)) + "'");
                return;
            }
        }
    }

    /**
     * Valid standard Base64 (padded) whose decoded size is at most {@code max} bytes.
     *
     * @param at the value's path
     * @param value the value
     * @param max the most decoded bytes allowed
     */
    public void base64MaxBytes(FieldPath at, String value, long max) {
        String why = null;
        int padding = 0;
        if (value.getBytes(StandardCharsets.UTF_8).length % 4 != 0) {
            why = "length is not a multiple of 4";
        } else {
            int end = value.length();
            while (end > 0 && value.charAt(end - 1) == '=') {
                end--;
            }
            padding = value.length() - end;
            if (padding > 2) {
                why = "more than two `=` at the end";
            }
            for (int i = 0; why == null && i < end; i++) {
                char c = value.charAt(i);
                boolean ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
                        || c == '+' || c == '/';
                if (!ok) {
                    why = "a character outside A-Z a-z 0-9 + / (or `=` before the end)";
                }
            }
        }
        if (why != null) {
            push(at, Rule.BASE64, "is not valid Base64: " + why);
            return;
        }
        long n = (long) value.length() / 4 * 3 - padding;
        if (n > max) {
            push(at, Rule.BASE64_MAX_BYTES, "decodes to " + n + " bytes, at most " + max + " allowed");
        }
    }

    // ---- numbers ----

    /**
     * Inside the inclusive range {@code min..max} (each bound optional).
     *
     * @param at the value's path
     * @param value the value
     * @param min the lowest value allowed, or {@code null}
     * @param max the highest value allowed, or {@code null}
     */
    public void rangeInt(FieldPath at, long value, Long min, Long max) {
        if (min != null && value < min) {
            push(at, Rule.RANGE, "is " + value + ", must be at least " + min);
        } else if (max != null && value > max) {
            push(at, Rule.RANGE, "is " + value + ", must be at most " + max);
        }
    }

    /**
     * Greater than zero.
     *
     * @param at the value's path
     * @param value the value
     */
    public void positiveInt(FieldPath at, long value) {
        if (value <= 0) {
            push(at, Rule.POSITIVE, "is " + value + ", must be greater than 0");
        }
    }

    /**
     * Inside the inclusive range {@code min..max} (each bound optional).
     *
     * @param at the value's path
     * @param value the value
     * @param min the lowest value allowed, or {@code null}
     * @param max the highest value allowed, or {@code null}
     */
    public void rangeAmount(FieldPath at, BigDecimal value, BigDecimal min, BigDecimal max) {
        if (min != null && value.compareTo(min) < 0) {
            push(at, Rule.RANGE, "is " + value.toPlainString() + ", must be at least " + min.toPlainString());
        } else if (max != null && value.compareTo(max) > 0) {
            push(at, Rule.RANGE, "is " + value.toPlainString() + ", must be at most " + max.toPlainString());
        }
    }

    /**
     * Greater than zero.
     *
     * @param at the value's path
     * @param value the value
     */
    public void positiveAmount(FieldPath at, BigDecimal value) {
        if (value.signum() <= 0) {
            push(at, Rule.POSITIVE, "is " + value.toPlainString() + ", must be greater than 0");
        }
    }

    /**
     * No fractional part ({@code 100} and {@code 100.00} pass, {@code 100.50} does not).
     *
     * @param at the value's path
     * @param value the value
     */
    public void whole(FieldPath at, BigDecimal value) {
        if (value.stripTrailingZeros().scale() > 0) {
            push(at, Rule.WHOLE, "is " + value.toPlainString() + ", must be a whole number");
        }
    }

    /**
     * At most {@code places} decimal places in the text that is sent ({@code 100.50} has 2).
     *
     * @param at the value's path
     * @param value the value
     * @param places the most decimal places allowed
     */
    public void decimalPlaces(FieldPath at, BigDecimal value, long places) {
        if (Math.max(value.scale(), 0) > places) {
            push(at, Rule.DECIMAL_PLACES, "is " + value.toPlainString() + ", at most " + places
                    + " decimal places allowed");
        }
    }

    // ---- arrays ----

    /**
     * A document of at most {@code max} bytes: its own size (the Base64 text sent is a third
     * larger). Violates {@code base64_max_bytes}.
     *
     * @param at the document's path
     * @param size its size in bytes
     * @param max the most bytes allowed
     */
    public void maxBytes(FieldPath at, long size, long max) {
        if (size > max) {
            push(at, Rule.BASE64_MAX_BYTES, "is " + size + " bytes, at most " + max + " allowed");
        }
    }

    /**
     * At most {@code max} items.
     *
     * @param at the array's path
     * @param length its length
     * @param max the most items allowed
     */
    public void maxItems(FieldPath at, int length, long max) {
        if (length > max) {
            push(at, Rule.MAX_ITEMS, "has " + length + " items, at most " + max + " allowed");
        }
    }

    /**
     * At least {@code min} items.
     *
     * @param at the array's path
     * @param length its length
     * @param min the fewest items allowed
     */
    public void minItems(FieldPath at, int length, long min) {
        if (length < min) {
            push(at, Rule.MIN_ITEMS, "has " + length + " items, at least " + min + " required");
        }
    }

    // ---- value sets ----

    /**
     * One of the {@code allowed} wire values (a value set's field that takes fewer of its
     * values in this request).
     *
     * @param at the value's path
     * @param value its wire value
     * @param allowed the wire values this request takes
     */
    public void oneOf(FieldPath at, String value, List<String> allowed) {
        if (!allowed.contains(value)) {
            push(at, Rule.ONE_OF, "is `" + value + "`, must be one of " + String.join(", ", allowed));
        }
    }

    // ---- presence and rules across fields ----

    /**
     * The field must be present (set and, for text, not empty).
     *
     * @param at the field's path
     * @param present whether it is
     */
    public void required(FieldPath at, boolean present) {
        if (!present) {
            push(at, Rule.REQUIRED, "is required");
        }
    }

    /**
     * The field must be present when {@code conditionHolds}.
     *
     * @param at the field's path
     * @param present whether it is
     * @param conditionHolds whether the condition holds
     * @param condition the condition in words, e.g. {@code payeeBankCode is 46}
     */
    public void requiredIf(FieldPath at, boolean present, boolean conditionHolds, String condition) {
        if (conditionHolds && !present) {
            push(at, Rule.REQUIRED_IF, "is required when " + condition);
        }
    }

    /**
     * At least one of {@code fields} of the value at {@code parent}.
     *
     * @param parent the path of the object that holds the fields
     * @param fields each field and whether it is present
     */
    public void atLeastOneOf(FieldPath parent, Presence... fields) {
        if (Stream.of(fields).noneMatch(Presence::present)) {
            String paths = paths(parent, fields, ", ");
            violations.add(new Violation(paths(parent, fields, "|"), Rule.AT_LEAST_ONE_OF,
                    "at least one of " + paths + " is required"));
        }
    }

    /**
     * Exactly one of {@code fields} of the value at {@code parent}.
     *
     * @param parent the path of the object that holds the fields
     * @param fields each field and whether it is present
     */
    public void exactlyOneOf(FieldPath parent, Presence... fields) {
        long n = Stream.of(fields).filter(Presence::present).count();
        if (n != 1) {
            violations.add(new Violation(paths(parent, fields, "|"), Rule.EXACTLY_ONE_OF,
                    "exactly one of " + paths(parent, fields, ", ") + " is required, " + n + " given"));
        }
    }

    private static String paths(FieldPath parent, Presence[] fields, String separator) {
        return Stream.of(fields).map(f -> parent.field(f.name()).toString()).collect(Collectors.joining(separator));
    }

    /**
     * The violations recorded so far.
     *
     * @return an unmodifiable copy
     */
    public List<Violation> violations() {
        return List.copyOf(violations);
    }

    /**
     * Throws {@link InvalidRequestException} with every violation, if any.
     *
     * @throws InvalidRequestException when a rule was violated
     */
    public void finish() {
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
    }
}
