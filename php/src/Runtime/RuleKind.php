<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * The kind of rule a {@see Violation} breaks (the rule registry's kinds, as in every SDK).
 */
enum RuleKind: string
{
    /** At most so many characters. */
    case MaxChars = 'max_chars';
    /** At least so many characters. */
    case MinChars = 'min_chars';
    /** ASCII letters and digits only. */
    case Alphanumeric = 'alphanumeric';
    /** Valid standard Base64. */
    case Base64 = 'base64';
    /** Base64 decoding to at most so many bytes. */
    case Base64MaxBytes = 'base64_max_bytes';
    /** Inside an inclusive range. */
    case Range = 'range';
    /** Greater than zero. */
    case Positive = 'positive';
    /** No fractional part. */
    case Whole = 'whole';
    /** At most so many decimal places. */
    case DecimalPlaces = 'decimal_places';
    /** At most so many items. */
    case MaxItems = 'max_items';
    /** At least so many items. */
    case MinItems = 'min_items';
    /** One of the values of a value set this request takes. */
    case OneOf = 'one_of';
    /** The field must be present. */
    case Required = 'required';
    /** The field must be present when a condition holds. */
    case RequiredIf = 'required_if';
    /** At least one of several fields. */
    case AtLeastOneOf = 'at_least_one_of';
    /** Exactly one of several fields. */
    case ExactlyOneOf = 'exactly_one_of';
    /** A value of the wrong PHP type (an array item that is not the declared class). */
    case Type = 'type';
}
