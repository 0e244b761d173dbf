"""Validation helpers called by generated code, one method per rule kind of the spec.

The method names are those the rule registry gives (``codegen/src/rules``,
``RuleKind::check``), as in the Rust runtime's ``Validator``. The generated code calls
them by name (mypy checks each call the spec makes), and a test of the generator
(``codegen/src/python/tests.rs``) fails when any rule kind names a method that is missing
here or takes other arguments. Every check takes the :class:`FieldPath` of the value it
checks; every violation of one request is collected and reported together, each naming
its field and rule.
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Sequence

from .errors import InvalidRequest

__all__ = ["RuleKind", "Violation", "FieldPath", "Validator", "decimal_scale"]


class RuleKind(enum.Enum):
    """The kind of rule a :class:`Violation` breaks (the Rust runtime's ``RuleKind``, plus
    ``TYPE`` for a value of the wrong Python type, which Rust's compiler refuses)."""

    MAX_CHARS = "max_chars"
    MIN_CHARS = "min_chars"
    ALPHANUMERIC = "alphanumeric"
    BASE64 = "base64"
    BASE64_MAX_BYTES = "base64_max_bytes"
    RANGE = "range"
    POSITIVE = "positive"
    WHOLE = "whole"
    DECIMAL_PLACES = "decimal_places"
    MAX_ITEMS = "max_items"
    MIN_ITEMS = "min_items"
    ONE_OF = "one_of"
    REQUIRED = "required"
    REQUIRED_IF = "required_if"
    AT_LEAST_ONE_OF = "at_least_one_of"
    EXACTLY_ONE_OF = "exactly_one_of"
    TYPE = "type"


@dataclass(frozen=True)
class Violation:
    """One violated rule: the field's path (``oderArray[2].amount``; for rules across
    fields, the paths joined with ``|``), the rule, and what is wrong."""

    field: str
    rule: RuleKind
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class FieldPath:
    """Where a value sits in a request: ``FieldPath.ROOT.field("oderArray").index(2)``
    renders as ``oderArray[2]``."""

    __slots__ = ("_parent", "_segment")

    ROOT: FieldPath

    def __init__(self, parent: FieldPath | None, segment: str) -> None:
        self._parent = parent
        self._segment = segment

    def field(self, name: str) -> FieldPath:
        return FieldPath(self, name if self._parent is None else "." + name)

    def index(self, index: int) -> FieldPath:
        return FieldPath(self, f"[{index}]")

    def __str__(self) -> str:
        parts: list[str] = []
        node: FieldPath | None = self
        while node is not None:
            parts.append(node._segment)
            node = node._parent
        return "".join(reversed(parts))

    def __repr__(self) -> str:
        return f"FieldPath({str(self)!r})"


FieldPath.ROOT = FieldPath(None, "")


def decimal_scale(value: Decimal) -> int:
    """Decimal places of the text a decimal is sent as (``100.50`` has 2)."""
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _type_name(value: object) -> str:
    return type(value).__name__


class Validator:
    """Collects violations; :meth:`finish` raises them all as :class:`InvalidRequest`."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []

    def _push(self, at: FieldPath, rule: RuleKind, message: str) -> None:
        self.violations.append(Violation(str(at), rule, message))

    # ---- types (Python only: a value of another type than the field's) -------------

    def is_type(
        self, at: FieldPath, value: object, expected: type[Any] | tuple[type[Any], ...], words: str
    ) -> bool:
        """True when ``value`` is an ``expected``; records a ``TYPE`` violation otherwise.
        ``bool`` is no integer and ``float`` is never accepted (money is exact)."""
        ok = isinstance(value, expected) and not (
            expected is int and isinstance(value, bool)
        )
        if not ok:
            self._push(at, RuleKind.TYPE, f"must be {words}, not {_type_name(value)}")
        return ok

    def is_int(self, at: FieldPath, value: object, bits: int) -> bool:
        """True when ``value`` is an ``int`` (not a ``bool``) within ``bits`` signed bits."""
        if not isinstance(value, int) or isinstance(value, bool):
            self._push(at, RuleKind.TYPE, f"must be an int, not {_type_name(value)}")
            return False
        limit = 1 << (bits - 1)
        if not -limit <= value < limit:
            self._push(at, RuleKind.TYPE, f"is {value}, outside the {bits}-bit integers the wire takes")
            return False
        return True

    def is_list(self, at: FieldPath, value: object) -> bool:
        """True when ``value`` is a list or tuple."""
        if isinstance(value, (list, tuple)):
            return True
        self._push(at, RuleKind.TYPE, f"must be a list, not {_type_name(value)}")
        return False

    def is_decimal(self, at: FieldPath, value: object) -> bool:
        """True when ``value`` is a finite :class:`~decimal.Decimal` (never a float)."""
        if isinstance(value, Decimal) and value.is_finite():
            return True
        what = "a float: money is exact, use Decimal(\"...\")" if isinstance(value, float) else _type_name(value)
        self._push(at, RuleKind.TYPE, f"must be a finite Decimal, not {what}")
        return False

    def is_date(self, at: FieldPath, value: object) -> bool:
        """True when ``value`` is a :class:`datetime.date` (a ``datetime`` is refused: the
        wire holds a UTC day, so pass ``moment.astimezone(timezone.utc).date()``)."""
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            return True
        what = "a datetime: give its UTC day, .astimezone(timezone.utc).date()" if isinstance(
            value, datetime.datetime
        ) else _type_name(value)
        self._push(at, RuleKind.TYPE, f"must be a date, not {what}")
        return False

    def is_document(self, at: FieldPath, value: object) -> bool:
        """True when ``value`` is a document's bytes (``bytes``, ``bytearray`` or
        ``memoryview``; read a file with ``Document.from_path``)."""
        if isinstance(value, (bytes, bytearray, memoryview)):
            return True
        hint = ": give its bytes, e.g. Document.from_path(path)" if isinstance(value, str) else ""
        self._push(at, RuleKind.TYPE, f"must be bytes, not {_type_name(value)}{hint}")
        return False

    # ---- strings --------------------------------------------------------------------

    def max_chars(self, at: FieldPath, value: str, max: int) -> None:
        """At most ``max`` characters (Unicode scalar values)."""
        n = len(value)
        if n > max:
            self._push(at, RuleKind.MAX_CHARS, f"has {n} characters, at most {max} allowed")

    def min_chars(self, at: FieldPath, value: str, min: int) -> None:
        """At least ``min`` characters."""
        n = len(value)
        if n < min:
            self._push(at, RuleKind.MIN_CHARS, f"has {n} characters, at least {min} required")

    def alphanumeric(self, at: FieldPath, value: str) -> None:
        """ASCII letters and digits only."""
        for c in value:
            if not (c.isascii() and c.isalnum()):
                self._push(
                    at,
                    RuleKind.ALPHANUMERIC,
                    f"must contain only ASCII letters and digits, found {c!r}",
                )
                return

    def base64_max_bytes(self, at: FieldPath, value: str, max: int) -> None:
        """Valid standard Base64 (padded) whose decoded size is at most ``max`` bytes."""
        why, n = _base64_decoded_len(value)
        if why is not None:
            self._push(at, RuleKind.BASE64, f"is not valid Base64: {why}")
        elif n > max:
            self._push(at, RuleKind.BASE64_MAX_BYTES, f"decodes to {n} bytes, at most {max} allowed")

    def max_bytes(self, at: FieldPath, size: int, max: int) -> None:
        """A document of at most ``max`` bytes: its own size (the Base64 text sent is a third
        larger). Violates ``base64_max_bytes``."""
        if size > max:
            self._push(at, RuleKind.BASE64_MAX_BYTES, f"is {size} bytes, at most {max} allowed")

    # ---- value sets -----------------------------------------------------------------

    def one_of(self, at: FieldPath, value: str, allowed: Sequence[str]) -> None:
        """One of the ``allowed`` wire values (a value set's field that takes fewer of its
        values in this request)."""
        if value not in allowed:
            self._push(at, RuleKind.ONE_OF, f"is `{value}`, must be one of {', '.join(allowed)}")

    # ---- numbers --------------------------------------------------------------------

    def range_int(self, at: FieldPath, value: int, min: int | None, max: int | None) -> None:
        """Inside the inclusive range ``min..max`` (each bound optional)."""
        if min is not None and value < min:
            self._push(at, RuleKind.RANGE, f"is {value}, must be at least {min}")
        elif max is not None and value > max:
            self._push(at, RuleKind.RANGE, f"is {value}, must be at most {max}")

    def positive_int(self, at: FieldPath, value: int) -> None:
        """Greater than zero."""
        if value <= 0:
            self._push(at, RuleKind.POSITIVE, f"is {value}, must be greater than 0")

    def range_amount(
        self, at: FieldPath, value: Decimal, min: Decimal | None, max: Decimal | None
    ) -> None:
        """Inside the inclusive range ``min..max`` (each bound optional)."""
        if min is not None and value < min:
            self._push(at, RuleKind.RANGE, f"is {_text(value)}, must be at least {_text(min)}")
        elif max is not None and value > max:
            self._push(at, RuleKind.RANGE, f"is {_text(value)}, must be at most {_text(max)}")

    def positive_amount(self, at: FieldPath, value: Decimal) -> None:
        """Greater than zero."""
        if value <= 0:
            self._push(at, RuleKind.POSITIVE, f"is {_text(value)}, must be greater than 0")

    def whole(self, at: FieldPath, value: Decimal) -> None:
        """No fractional part (``100`` and ``100.00`` pass, ``100.50`` does not)."""
        if value != value.to_integral_value():
            self._push(at, RuleKind.WHOLE, f"is {_text(value)}, must be a whole number")

    def decimal_places(self, at: FieldPath, value: Decimal, places: int) -> None:
        """At most ``places`` decimal places in the text that is sent."""
        if decimal_scale(value) > places:
            self._push(
                at,
                RuleKind.DECIMAL_PLACES,
                f"is {_text(value)}, at most {places} decimal places allowed",
            )

    # ---- arrays ---------------------------------------------------------------------

    def max_items(self, at: FieldPath, length: int, max: int) -> None:
        if length > max:
            self._push(at, RuleKind.MAX_ITEMS, f"has {length} items, at most {max} allowed")

    def min_items(self, at: FieldPath, length: int, min: int) -> None:
        if length < min:
            self._push(at, RuleKind.MIN_ITEMS, f"has {length} items, at least {min} required")

    # ---- presence and constraints across fields ---------------------------------------

    def required(self, at: FieldPath, present: bool) -> None:
        """The field must be present (set and, for strings, non-empty)."""
        if not present:
            self._push(at, RuleKind.REQUIRED, "is required")

    def required_if(self, at: FieldPath, present: bool, condition_holds: bool, condition: str) -> None:
        """The field must be present when ``condition_holds`` (``condition`` in words)."""
        if condition_holds and not present:
            self._push(at, RuleKind.REQUIRED_IF, f"is required when {condition}")

    def at_least_one_of(self, parent: FieldPath, fields: Sequence[tuple[str, bool]]) -> None:
        """At least one of ``fields`` (wire name, present) of the value at ``parent``."""
        if not any(present for _, present in fields):
            paths = [str(parent.field(name)) for name, _ in fields]
            self.violations.append(
                Violation(
                    "|".join(paths),
                    RuleKind.AT_LEAST_ONE_OF,
                    f"at least one of {', '.join(paths)} is required",
                )
            )

    def exactly_one_of(self, parent: FieldPath, fields: Sequence[tuple[str, bool]]) -> None:
        """Exactly one of ``fields`` (wire name, present) of the value at ``parent``."""
        n = sum(1 for _, present in fields if present)
        if n != 1:
            paths = [str(parent.field(name)) for name, _ in fields]
            self.violations.append(
                Violation(
                    "|".join(paths),
                    RuleKind.EXACTLY_ONE_OF,
                    f"exactly one of {', '.join(paths)} is required, {n} given",
                )
            )

    def is_clean(self) -> bool:
        return not self.violations

    def finish(self) -> None:
        """Raises :class:`InvalidRequest` with every violation, if any."""
        if self.violations:
            raise InvalidRequest(self.violations)


def _text(value: Decimal) -> str:
    return format(value, "f")


def _base64_decoded_len(value: str) -> tuple[str | None, int]:
    if len(value.encode("utf-8")) % 4 != 0:
        return "length is not a multiple of 4", 0
    stripped = value.rstrip("=")
    padding = len(value) - len(stripped)
    if padding > 2:
        return "more than two `=` at the end", 0
    for c in stripped:
        if not ((c.isascii() and c.isalnum()) or c in "+/"):
            return "a character outside A-Z a-z 0-9 + / (or `=` before the end)", 0
    return None, len(value) // 4 * 3 - padding
