"""The JSON the client sends and reads, for generated models.

Sending: generated requests turn themselves into :data:`WireValue` trees (``_to_wire``)
that :func:`dumps` writes compactly. Money is a :class:`~decimal.Decimal`, written with
its exact text (``"100.50"``, or the literal number ``100.50`` where the spec says the
wire is a number); a float is never written, nor a ``null``.

Receiving: generated response models read the verified body's tree with the
``*_of`` functions, leniently where the API document is loose (a string may arrive as an
integer, an integer as a string of digits), without failing on members or enum values
they do not know. A value of another shape is a :class:`WireShapeError` naming its path.
"""

from __future__ import annotations

import datetime
import enum
import json
import re
from decimal import Decimal, InvalidOperation
from typing import Callable, Mapping, Sequence, TypeVar, Union

from .canonical import JsonNumber, JsonValue
from .document import Document, document_in, document_of_text, document_text

__all__ = [
    "WireValue",
    "WireObject",
    "RawNumber",
    "Unknown",
    "WireShapeError",
    "dumps",
    "decimal_text",
    "decimal_number",
    "enum_wire",
    "enum_text",
    "date_text",
    "date_of",
    "document_in",
    "document_text",
    "document_of",
    "json_wire",
    "object_of",
    "str_of",
    "int_of",
    "decimal_of",
    "bool_of",
    "json_of",
    "Scalar",
    "scalar_of",
    "enum_of",
    "list_of",
    "wire_text",
]


class RawNumber(str):
    """A JSON number to send, as its exact text (``100.50``)."""

    __slots__ = ()


#: What generated requests serialize to.
WireValue = Union[bool, int, str, Decimal, RawNumber, Sequence["WireValue"], Mapping[str, "WireValue"]]
WireObject = Mapping[str, WireValue]


def _write(value: object, out: list[str], at: str) -> None:
    if isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, RawNumber):
        out.append(str(value))
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, int):
        out.append(str(int(value)))
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"`{at}` is {value}, not a finite number")
        out.append(format(value, "f"))
    elif isinstance(value, Mapping):
        out.append("{")
        first = True
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"`{at}` has a key that is not text: {key!r}")
            if not first:
                out.append(",")
            first = False
            out.append(json.dumps(key, ensure_ascii=False))
            out.append(":")
            _write(item, out, f"{at}.{key}" if at else key)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out, f"{at}[{i}]")
        out.append("]")
    elif value is None:
        raise ValueError(f"`{at}` is None; a null is never sent (leave the field out)")
    elif isinstance(value, float):
        raise ValueError(f"`{at}` is a float; money and numbers are sent exactly (use Decimal)")
    else:
        raise ValueError(f"`{at}` cannot be sent as JSON ({type(value).__name__})")


def dumps(value: WireObject) -> bytes:
    """Compact UTF-8 JSON of a wire tree (keys in insertion order)."""
    out: list[str] = []
    _write(value, out, "")
    return "".join(out).encode("utf-8")


def decimal_text(value: Decimal) -> str:
    """A decimal sent as a JSON string, with its exact text (``"100.50"``)."""
    return format(value, "f")


def decimal_number(value: Decimal) -> RawNumber:
    """A decimal sent as a JSON number, with its exact text (``100.50``)."""
    return RawNumber(format(value, "f"))


E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T")


def enum_wire(value: enum.Enum | str) -> WireValue:
    """The wire value of a generated enum member (text, or an integer), or of a code given
    as text to an open value set's field (sent as given)."""
    if isinstance(value, str):
        return value
    wire = value.value
    if isinstance(wire, (str, int)):
        return wire
    raise ValueError(f"{value!r} has no wire value")


def enum_text(value: enum.Enum | str) -> str:
    """The wire text of a text value set's member, or a code given as text (an open set's
    field): what a ``one_of`` rule compares."""
    wire = enum_wire(value)
    return wire if isinstance(wire, str) else str(wire)


def json_wire(value: object, at: str = "") -> WireValue:
    """A JSON field to send (``dict``, ``list``, text, ``int``, ``bool``, ``Decimal``,
    :class:`JsonNumber`); ``None`` and floats are refused when it is written."""
    if isinstance(value, JsonNumber):
        return RawNumber(value)
    if isinstance(value, Decimal):
        return decimal_number(value)
    if isinstance(value, Mapping):
        return {str(k): json_wire(v, f"{at}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_wire(v, f"{at}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, (bool, int, str)):
        return value
    raise ValueError(f"`{at}` cannot be sent as JSON ({type(value).__name__})")


class Unknown:
    """A value of a value set that this client does not know (a newer service may send
    values the spec did not list). ``wire`` is its text as received. Comparing it with a
    known member is always False."""

    __slots__ = ("wire",)

    def __init__(self, wire: str) -> None:
        self.wire = wire

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unknown) and other.wire == self.wire

    def __hash__(self) -> int:
        return hash(("Unknown", self.wire))

    def __repr__(self) -> str:
        return f"Unknown({self.wire!r})"

    def __str__(self) -> str:
        return self.wire


def wire_text(value: enum.Enum | Unknown | str | int | None) -> str | None:
    """The wire text of a received state (enum member, :class:`Unknown`, text or int)."""
    if value is None:
        return None
    if isinstance(value, Unknown):
        return value.wire
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


class WireShapeError(ValueError):
    """A received value of another shape than the spec's, at ``path``."""

    def __init__(self, path: str, expected: str, value: JsonValue) -> None:
        shown = json.dumps(value)[:64] if not isinstance(value, JsonNumber) else str(value)[:64]
        super().__init__(f"`{path}`: expected {expected}, found {shown}")
        self.path = path


_INT = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def object_of(value: JsonValue, at: str) -> dict[str, JsonValue]:
    """An object (``None`` reads as ``{}``: an absent ``data``)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise WireShapeError(at, "an object", value)


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def date_text(value: datetime.date) -> str:
    """A day of the calendar as sent: ``YYYY-MM-DD`` (decision ``date-type``)."""
    return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"


def date_of(value: JsonValue, at: str) -> datetime.date | None:
    """A day of the calendar, received as the string ``YYYY-MM-DD`` (exactly: another
    format is a :class:`WireShapeError`, never a day guessed)."""
    if value is None:
        return None
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return datetime.date(int(value[0:4]), int(value[5:7]), int(value[8:10]))
        except ValueError:
            pass
    raise WireShapeError(at, "a date YYYY-MM-DD", value)


def document_of(value: JsonValue, at: str) -> Document | None:
    """A document, received as Base64 text and read leniently (see
    :func:`~baas_runtime.document.document_of_text`: text that is not Base64 is kept as its
    bytes, never an error); a value that is not a string is a :class:`WireShapeError`."""
    if value is None:
        return None
    if isinstance(value, str):
        return document_of_text(value)
    raise WireShapeError(at, "a document as Base64 text", value)


def str_of(value: JsonValue, at: str) -> str | None:
    """A string; also an integer (its digits) or a boolean (``true``/``false``)."""
    if value is None:
        return None
    if isinstance(value, JsonNumber):
        if _INT.fullmatch(value):
            return str(value)
        raise WireShapeError(at, "a string", value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    raise WireShapeError(at, "a string", value)


def int_of(value: JsonValue, at: str, bits: int = 64) -> int | None:
    """An integer; also a string of digits (``"12"``, ``"-1"``), within ``bits``."""
    if value is None:
        return None
    if isinstance(value, str) and _INT.fullmatch(value):
        n = int(value)
        limit = 1 << (bits - 1)
        if -limit <= n < limit:
            return n
    raise WireShapeError(at, f"an integer within {bits} bits", value)


def decimal_of(value: JsonValue, at: str) -> Decimal | None:
    """An exact decimal from a JSON number's literal text or a string (never a float)."""
    if value is None:
        return None
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        try:
            return Decimal(str(value))
        except InvalidOperation:
            pass
    raise WireShapeError(at, "a decimal number", value)


def bool_of(value: JsonValue, at: str) -> bool | None:
    """``true`` or ``false``."""
    if value is None or isinstance(value, bool):
        return value
    raise WireShapeError(at, "a boolean", value)


class Scalar(str):
    """A received string, number or boolean whose JSON type is not shown, kept as its
    text (a number's literal text, never through a float): read it with ``str()``,
    :meth:`as_int` or :meth:`as_decimal`."""

    __slots__ = ("is_number",)

    is_number: bool

    def __new__(cls, text: str, is_number: bool = False) -> "Scalar":
        made = super().__new__(cls, text)
        made.is_number = is_number
        return made

    def as_int(self) -> int | None:
        """The value as an integer when its text is one (``12``, ``"12"``), else None."""
        return int(self) if _INT.fullmatch(self) else None

    def as_decimal(self) -> Decimal | None:
        """The value as an exact decimal when its text is one, else None."""
        if _DECIMAL.fullmatch(self):
            try:
                return Decimal(str(self))
            except InvalidOperation:
                return None
        return None

    def __repr__(self) -> str:
        return f"Scalar({str.__repr__(self)})"


def scalar_of(value: JsonValue, at: str) -> Scalar | None:
    """A string, number or boolean as its text; an object or an array is another shape."""
    if value is None:
        return None
    if isinstance(value, bool):
        return Scalar("true" if value else "false")
    if isinstance(value, JsonNumber):
        return Scalar(str(value), is_number=True)
    if isinstance(value, str):
        return Scalar(value)
    raise WireShapeError(at, "a string, number or boolean", value)


def json_of(value: JsonValue, at: str) -> JsonValue:
    """Any JSON value, as received (numbers as :class:`JsonNumber`)."""
    return value


def enum_of(cls: type[E], value: JsonValue, at: str) -> E | Unknown | None:
    """A member of a generated enum, or :class:`Unknown` for a value it does not list.
    A text value set also takes an integer (as text); an integer one a string of
    digits."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str):
        raise WireShapeError(at, f"a {cls.__name__} value", value)
    text = str(value)
    for member in cls:
        wire = member.value
        if isinstance(wire, int) and not isinstance(wire, bool):
            if _INT.fullmatch(text) and int(text) == wire:
                return member
        elif wire == text:
            return member
    return Unknown(text)


def list_of(item: Callable[[JsonValue, str], T | None], value: JsonValue, at: str) -> list[T] | None:
    """An array whose items are read by ``item``."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise WireShapeError(at, "an array", value)
    out: list[T] = []
    for i, element in enumerate(value):
        read = item(element, f"{at}[{i}]")
        if read is None:
            raise WireShapeError(f"{at}[{i}]", "a value", element)
        out.append(read)
    return out


#: Reads one received value at a path (``None`` when absent).
Reader = Callable[[JsonValue, str], Union[T, None]]


def int32_of(value: JsonValue, at: str) -> int | None:
    """:func:`int_of` within 32 bits."""
    return int_of(value, at, 32)


def enum_reader(cls: type[E]) -> Callable[[JsonValue, str], E | Unknown | None]:
    """A reader of a generated enum's values (:func:`enum_of`)."""
    return lambda value, at: enum_of(cls, value, at)


def record_reader(read: Callable[[JsonValue, str], T]) -> Callable[[JsonValue, str], T | None]:
    """A reader of a record (``None`` when absent)."""
    return lambda value, at: None if value is None else read(value, at)


def list_reader(item: Callable[[JsonValue, str], T | None]) -> Callable[[JsonValue, str], list[T] | None]:
    """A reader of an array whose items ``item`` reads."""
    return lambda value, at: list_of(item, value, at)


def member_text(value: JsonValue, name: str) -> str | None:
    """The text of a member of a raw JSON object (a state read from an unshaped answer)."""
    if isinstance(value, dict):
        member = value.get(name)
        if isinstance(member, str):
            return str(member)
        if isinstance(member, bool):
            return "true" if member else "false"
    return None


def json_list_of(value: JsonValue, at: str) -> list[JsonValue] | None:
    """An array of any JSON values, as received."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise WireShapeError(at, "an array", value)
    return value


def enum_list_reader(cls: type[E]) -> Callable[[JsonValue, str], list[E | Unknown] | None]:
    """A reader of an array of a generated enum's values."""

    def read(value: JsonValue, at: str) -> list[E | Unknown] | None:
        if value is None:
            return None
        if not isinstance(value, list):
            raise WireShapeError(at, "an array", value)
        out: list[E | Unknown] = []
        for i, element in enumerate(value):
            member = enum_of(cls, element, f"{at}[{i}]")
            if member is None:
                raise WireShapeError(f"{at}[{i}]", "a value", element)
            out.append(member)
        return out

    return read
