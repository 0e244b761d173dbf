"""The canonical string of the signing algorithm, computed from JSON *bytes*.

The API document's Authentication section flattens a message to ``path=value`` pairs:
object keys joined with ``.``, array elements as ``path[i]``, an empty object as
``path={}``, an empty array as ``path=[]``, nulls skipped, the top-level ``signature``
left out. The pair ``senderKey=<key>`` is added, the complete pair strings are sorted by
their UTF-8 bytes, joined with ``&`` and hashed with plain SHA-256 (lowercase hex).

This module reads the exact bytes sent or received with a parser of its own (no JSON
library re-renders anything): strings are unescaped to UTF-8, numbers keep their literal
text (``100.50`` stays ``100.50``). It refuses, in time linear in the body, what the Rust
runtime refuses (``runtime/src/canonical.rs``), with the same limits:

- a body that is not valid UTF-8, not JSON, or whose top-level value is not an object;
- duplicate keys in one object; nesting deeper than :data:`MAX_DEPTH`;
- a body whose pairs, at any point of it, are longer than :data:`MAX_EXPANSION` times the
  bytes read so far plus :data:`EXPANSION_ALLOWANCE` (a long key above many values would
  otherwise give a canonical string quadratically longer than the body);

and, read with ``unambiguous=True`` (to sign or verify), a body whose canonical string
could stand for another body: the re-cut rules R1-R4 of :class:`Ambiguity`.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Sequence, Union

from .secret import REDACTED, PrivateKey

__all__ = [
    "MAX_DEPTH",
    "MAX_EXPANSION",
    "EXPANSION_ALLOWANCE",
    "MAX_BODY",
    "SENDER_KEY",
    "RECEIVED_NULL_MEMBERS",
    "JsonNumber",
    "JsonValue",
    "Ambiguity",
    "CanonicalError",
    "Flattened",
    "parse",
    "parse_for_signing",
    "reads_as_pair",
]

#: Deepest nesting of objects and arrays accepted (the top-level object is depth 1).
MAX_DEPTH = 64
#: The pairs may be at most this many times as long as the bytes read so far ...
MAX_EXPANSION = 32
#: ... plus this many bytes (small bodies nested deep).
EXPANSION_ALLOWANCE = 64 * 1024
#: Longest body read (as the Rust runtime's limit).
MAX_BODY = (1 << 29) - 1
#: The name of the pair that carries the key.
SENDER_KEY = "senderKey"
#: A received body (answer, notification) may carry a ``null`` object member, read as
#: absent (the service's document gives some answer fields as ``null``); a ``null`` array
#: element is refused (R2), and a signer refuses any ``null`` (:func:`parse_for_signing`).
RECEIVED_NULL_MEMBERS = True


class JsonNumber(str):
    """A JSON number kept as the literal text it had in the bytes (``100.50``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"JsonNumber({str.__repr__(self)})"


#: A parsed JSON value: objects are dicts in document order, numbers :class:`JsonNumber`.
JsonValue = Union[None, bool, str, JsonNumber, list["JsonValue"], dict[str, "JsonValue"]]


class Ambiguity(enum.Enum):
    """The re-cut rule a body breaks (``tests/data/signing-vectors.json`` names them)."""

    #: R1: an object key (at any depth) is empty or holds ``&``, ``=``, ``.``, ``[`` or ``]``.
    KEY = "R1"
    #: R2: a ``null`` array element (nulls are left out of the canonical string, so one at
    #: the end of an array could be added); for a signer, any ``null``.
    NULL = "R2"
    #: R3: a string value holds ``&`` then text that reads as a pair (``path=``).
    VALUE_READS_AS_PAIR = "R3"
    #: R4: a top-level ``senderKey`` member (the signer adds that pair itself).
    SENDER_KEY = "R4"

    @property
    def id(self) -> str:
        """``R1`` to ``R4``."""
        return self.value

    def describe(self) -> str:
        """The rule and its reason, in words."""
        return _AMBIGUITY_WORDS[self]


_AMBIGUITY_WORDS = {
    Ambiguity.KEY: "an object key is empty or contains `&`, `=`, `.`, `[` or `]`, so the signed "
    "text could be read as other keys or array elements",
    Ambiguity.NULL: "a `null` is left out of the signed text, so it could be added or removed "
    "without changing the signature; leave the member out instead",
    Ambiguity.VALUE_READS_AS_PAIR: "a text value contains `&` followed by something that reads "
    "as `name=`, so the signed text could be read as members that were never sent",
    Ambiguity.SENDER_KEY: "a top-level `senderKey` member is refused: the signer adds the "
    "`senderKey` pair (the private key) itself, and the two would be confused",
}


class CanonicalError(ValueError):
    """Why a body has no canonical string (or is refused by a re-cut rule).

    ``kind`` is one of ``invalid_utf8``, ``syntax``, ``not_an_object``, ``duplicate_key``,
    ``too_deep``, ``too_large``, ``signature_not_string``, ``already_signed``,
    ``ambiguous``; ``offset``, ``path`` and ``rule`` say where and which rule.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        offset: int | None = None,
        path: str | None = None,
        rule: Ambiguity | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.offset = offset
        self.path = path
        self.rule = rule

    @staticmethod
    def ambiguous(rule: Ambiguity, path: str) -> CanonicalError:
        return CanonicalError(
            "ambiguous",
            f"refused by rule {rule.id} at `{path}`: {rule.describe()}",
            path=path,
            rule=rule,
        )


_SPECIAL = frozenset("&=.[]")
_KEY = r"[^&=.\[\]]+"
_READS_AS_PAIR = re.compile("&" + _KEY + r"(?:\." + _KEY + r"|\[[0-9]+\])*=")
# A `\u` escape of a UTF-16 surrogate (or text that looks like one: `\\ud800` is a
# backslash then `ud800`); bodies holding one are read by the exact reader.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_log = logging.getLogger("baas")


def reads_as_pair(value: str) -> bool:
    """Rule R3: ``value`` holds ``&``, then a key (characters other than ``& = . [ ]``),
    any number of ``.key`` or ``[digits]``, then ``=``."""
    return "&" in value and _READS_AS_PAIR.search(value) is not None


def _bad_key(key: str) -> bool:
    return not key or not _SPECIAL.isdisjoint(key)


@dataclass(frozen=True)
class Flattened:
    """The pairs of one JSON object body (without ``senderKey``) and what a signer or a
    verifier needs of it. Build it with :func:`parse`."""

    #: The parsed body (numbers as :class:`JsonNumber`, objects in document order).
    value: dict[str, JsonValue]
    #: The canonical string without the ``senderKey`` pair, in its order, as runs of
    #: ``&``-joined pairs (each the pairs of one object, or one pair); see :attr:`pairs`.
    parts: Sequence[str]
    #: The top-level ``signature`` when it is a string.
    signature: str | None
    #: True when the body has a top-level ``signature`` member (even ``null``).
    has_signature_key: bool
    #: True when the body has a top-level ``senderKey`` (only without ``unambiguous``).
    has_sender_key_pair: bool
    #: The paths of the ``null`` members skipped (left out of the canonical string, as the
    #: document says), in document order; without ``unambiguous``, null elements too.
    null_paths: tuple[str, ...] = ()
    #: True when every part is one pair (the exact reader's result).
    parts_are_pairs: bool = False
    #: The canonical string's UTF-8 without the ``senderKey`` pair, in pieces (each some
    #: ``&``-joined pairs, none empty), and the index the key pair goes at, when the reading
    #: made them (a short body's): :meth:`digest` then joins them around the key pair.
    encoded: tuple[tuple[bytes, ...], int] | None = field(default=None, repr=False, compare=False)

    @property
    def pairs(self) -> list[str]:
        """The ``path=value`` pairs (the top-level ``signature`` left out), sorted as the
        canonical string sorts them (by code point: the order of their UTF-8 bytes)."""
        if self.parts_are_pairs:
            return list(self.parts)
        out: list[str] = []
        for key, item in self.value.items():
            if key != "signature":
                _flatten(key, item, out)
        out.sort()
        return out

    @property
    def first_null_path(self) -> str | None:
        """The path of the first ``null`` skipped, if any."""
        return self.null_paths[0] if self.null_paths else None

    def _with(self, key_pair: str) -> list[str]:
        # Every part begins with its own path, which orders it against `senderKey=` (a
        # top-level key other than senderKey differs from it at or before its `=`).
        at = bisect_left(self.parts, key_pair)
        return [*self.parts[:at], key_pair, *self.parts[at:]]

    def canonical_string_exposing_key(self, key: PrivateKey) -> str:
        """The canonical string, with the key itself in the ``senderKey`` pair (to hash;
        never to print)."""
        return "&".join(self._with(SENDER_KEY + "=" + key.expose()))

    def canonical_string_redacted(self, key: PrivateKey) -> str:
        """The canonical string with the key shown as ``[redacted]`` wherever it appears:
        in the added pair, and inside any other pair."""
        secret = key.expose()
        key_pair = SENDER_KEY + "=" + secret
        out = []
        for part in self._with(key_pair):
            if part is key_pair:
                out.append(SENDER_KEY + "=" + REDACTED)
            else:
                out.append(part.replace(secret, REDACTED) if secret else part)
        return "&".join(out)

    def digest(self, key: PrivateKey) -> bytes:
        """SHA-256 of the canonical string (hashed 24 runs at a time: the whole string is
        never made)."""
        if self.encoded is not None:
            key_pair = (SENDER_KEY + "=" + key.expose()).encode("utf-8")
            pieces, at = self.encoded
            return hashlib.sha256(b"&".join([*pieces[:at], key_pair, *pieces[at:]])).digest()
        parts = self._with(SENDER_KEY + "=" + key.expose())
        hashed = hashlib.sha256("&".join(parts[:24]).encode("utf-8"))
        for at in range(24, len(parts), 24):
            hashed.update(b"&")
            hashed.update("&".join(parts[at : at + 24]).encode("utf-8"))
        return hashed.digest()

    def signature_hex(self, key: PrivateKey) -> str:
        """The lowercase hex signature for ``key``."""
        return self.digest(key).hex()


def _flatten(path: str, value: JsonValue, out: list[str]) -> None:
    if isinstance(value, dict):
        if not value:
            out.append(path + "={}")
        for key, item in value.items():
            _flatten(path + "." + key, item, out)
    elif isinstance(value, list):
        if not value:
            out.append(path + "=[]")
        for index, item in enumerate(value):
            _flatten(f"{path}[{index}]", item, out)
    elif isinstance(value, str):
        out.append(path + "=" + value)
    elif isinstance(value, bool):
        out.append(path + ("=true" if value else "=false"))


def parse(body: bytes, *, unambiguous: bool = True, null_members: bool = RECEIVED_NULL_MEMBERS) -> Flattened:
    """Reads a JSON object body.

    With ``unambiguous`` (to sign or verify) a body that breaks a re-cut rule is refused
    with a :class:`CanonicalError` of kind ``ambiguous``; without it any object is read
    (to diagnose it), nulls skipped. ``null_members`` accepts a ``null`` object member
    (skipped: it reads as absent), never a ``null`` array element.
    """
    if not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError("the body must be bytes")
    data = bytes(body)
    if len(data) > MAX_BODY:
        raise CanonicalError(
            "too_large", f"the body is longer than {MAX_BODY} bytes", offset=MAX_BODY
        )
    if unambiguous:
        try:
            return _fast.read(data, null_members)
        except _fast.Uncertain:
            pass
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CanonicalError(
            "invalid_utf8", f"body is not valid UTF-8 (byte {e.start})", offset=e.start
        ) from None
    # The exact reader: it refuses (with the kind, offset, path and rule of the refusal),
    # or reads what the fast reading could not vouch for.
    from ._reader import Reader

    reader = Reader(data, unambiguous, null_members)
    value = reader.top()
    reader.pairs.sort()
    return Flattened(
        value=value,
        parts=reader.pairs,
        signature=reader.signature,
        has_signature_key=reader.has_signature_key,
        has_sender_key_pair=reader.has_sender_key_pair,
        null_paths=tuple(reader.nulls),
        parts_are_pairs=True,
    )


def parse_for_signing(body: bytes) -> Flattened:
    """:func:`parse` for a signer: the re-cut rules, a ``null`` array element refused (R2),
    ``null`` members skipped as the document says, each with a warning on the ``baas``
    logger (their paths are in :attr:`Flattened.null_paths`). The SDK's own requests never
    hold a null (:func:`baas_runtime.wire.dumps` refuses one)."""
    flat = parse(body, null_members=True)
    for path in flat.null_paths:
        _log.warning(
            "signing: the null member `%s` is skipped (null values are left out of the "
            "signature, as the document says; leave the member out)",
            path,
        )
    return flat


from . import _fast  # noqa: E402  (it reads this module's names)
