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
import re
from dataclasses import dataclass
from typing import Union

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
_WS = re.compile(rb"[ \t\n\r]*")
# The unrolled loop (plain runs between escapes): linear, no backtracking blow-up.
_STRING = re.compile(
    rb'"([^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*)"'
)
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")


def reads_as_pair(value: str) -> bool:
    """Rule R3: ``value`` holds ``&``, then a key (characters other than ``& = . [ ]``),
    any number of ``.key`` or ``[digits]``, then ``=``."""
    return "&" in value and _READS_AS_PAIR.search(value) is not None


def _bad_key(key: str) -> bool:
    return not key or any(c in _SPECIAL for c in key)


class _Parser:
    """One pass over the body: the value tree, the pairs in document order and the
    checks, refusing as soon as a limit or rule is broken."""

    def __init__(self, body: bytes, unambiguous: bool, null_members: bool) -> None:
        self.body = body
        self.pos = 0
        self.unambiguous = unambiguous
        self.null_members = null_members
        self.pairs: list[str] = []
        self.pair_bytes = 0
        self.signature: str | None = None
        self.has_signature_key = False
        self.has_sender_key_pair = False
        self.first_null: str | None = None

    def syntax(self, expected: str) -> CanonicalError:
        return CanonicalError(
            "syntax", f"invalid JSON at byte {self.pos}: expected {expected}", offset=self.pos
        )

    def ws(self) -> None:
        match = _WS.match(self.body, self.pos)
        if match is not None:
            self.pos = match.end()

    def peek(self) -> int:
        return self.body[self.pos] if self.pos < len(self.body) else -1

    def within_budget(self) -> None:
        if self.pair_bytes > self.pos * MAX_EXPANSION + EXPANSION_ALLOWANCE:
            raise CanonicalError(
                "too_large",
                f"the flattened pairs are more than {MAX_EXPANSION} times as long as the body "
                f"at byte {self.pos} (each value repeats its whole path: long keys above many "
                "values)",
                offset=self.pos,
            )

    def pair(self, path: str, path_len: int, text: str, text_len: int) -> None:
        self.pair_bytes += path_len + 1 + text_len
        self.pairs.append(path + "=" + text)

    def string(self) -> tuple[str, int]:
        """The string at ``pos`` (unescaped) and its length in UTF-8 bytes."""
        match = _STRING.match(self.body, self.pos)
        if match is None:
            raise self.syntax("a valid JSON string")
        raw = match.group(1)
        self.pos = match.end()
        if b"\\" not in raw:
            return raw.decode("utf-8"), len(raw)
        text: str = json.loads('"' + raw.decode("utf-8") + '"')
        if _SURROGATE.search(text) is not None:
            self.pos = match.start()
            raise self.syntax("no lone surrogate `\\uD800`-`\\uDFFF`")
        return text, len(text.encode("utf-8"))

    def top(self) -> dict[str, JsonValue]:
        self.ws()
        if self.peek() != 0x7B:  # {
            raise CanonicalError("not_an_object", "body is not a JSON object")
        value = self.object(1, "", 0, top=True)
        self.ws()
        if self.pos != len(self.body):
            raise self.syntax("end of input")
        return value

    def object(self, depth: int, path: str, path_len: int, top: bool = False) -> dict[str, JsonValue]:
        if depth > MAX_DEPTH:
            raise CanonicalError("too_deep", f"JSON nested deeper than {MAX_DEPTH} levels")
        self.pos += 1  # {
        self.ws()
        out: dict[str, JsonValue] = {}
        if self.peek() == 0x7D:  # }
            self.pos += 1
            if not top:
                self.pair(path, path_len, "{}", 2)
            return out
        repeated: tuple[int, str] | None = None
        while True:
            self.ws()
            if self.peek() != 0x22:  # "
                raise self.syntax("a key string")
            key, key_len = self.string()
            member = key if top else path + "." + key
            member_len = key_len if top else path_len + 1 + key_len
            if self.unambiguous:
                if _bad_key(key):
                    raise CanonicalError.ambiguous(Ambiguity.KEY, member)
                if top and key == SENDER_KEY:
                    raise CanonicalError.ambiguous(Ambiguity.SENDER_KEY, member)
            elif top and key == SENDER_KEY:
                self.has_sender_key_pair = True
            self.ws()
            if self.peek() != 0x3A:  # :
                raise self.syntax("`:`")
            self.pos += 1
            self.ws()
            if top and key == "signature":
                value: JsonValue = self.signature_value(depth)
            else:
                value = self.value(depth, member, member_len, in_object=True)
            if key in out and repeated is None:
                repeated = (self.pos, member)
            out[key] = value
            self.within_budget()
            self.ws()
            byte = self.peek()
            if byte == 0x2C:  # ,
                self.pos += 1
            elif byte == 0x7D:  # }
                self.pos += 1
                break
            else:
                raise self.syntax("`,` or `}`")
        if repeated is not None:
            raise CanonicalError("duplicate_key", f"duplicate key `{repeated[1]}`", path=repeated[1])
        return out

    def array(self, depth: int, path: str, path_len: int) -> list[JsonValue]:
        if depth > MAX_DEPTH:
            raise CanonicalError("too_deep", f"JSON nested deeper than {MAX_DEPTH} levels")
        self.pos += 1  # [
        self.ws()
        out: list[JsonValue] = []
        if self.peek() == 0x5D:  # ]
            self.pos += 1
            self.pair(path, path_len, "[]", 2)
            return out
        index = 0
        while True:
            suffix = f"[{index}]"
            self.ws()
            out.append(self.value(depth, path + suffix, path_len + len(suffix), in_object=False))
            self.within_budget()
            index += 1
            self.ws()
            byte = self.peek()
            if byte == 0x2C:
                self.pos += 1
            elif byte == 0x5D:
                self.pos += 1
                return out
            else:
                raise self.syntax("`,` or `]`")

    def value(self, depth: int, path: str, path_len: int, *, in_object: bool) -> JsonValue:
        byte = self.peek()
        if byte == 0x7B:
            return self.object(depth + 1, path, path_len)
        if byte == 0x5B:
            return self.array(depth + 1, path, path_len)
        if byte == 0x22:
            text, text_len = self.string()
            if self.unambiguous and reads_as_pair(text):
                raise CanonicalError.ambiguous(Ambiguity.VALUE_READS_AS_PAIR, path)
            self.pair(path, path_len, text, text_len)
            return text
        if byte == 0x74:  # t
            self.keyword(b"true")
            self.pair(path, path_len, "true", 4)
            return True
        if byte == 0x66:  # f
            self.keyword(b"false")
            self.pair(path, path_len, "false", 5)
            return False
        if byte == 0x6E:  # n
            self.keyword(b"null")
            if self.unambiguous and not (in_object and self.null_members):
                raise CanonicalError.ambiguous(Ambiguity.NULL, path)
            if self.first_null is None:
                self.first_null = path
            return None
        if byte == 0x2D or 0x30 <= byte <= 0x39:
            match = _NUMBER.match(self.body, self.pos)
            if match is None:
                raise self.syntax("a digit")
            literal = match.group(0).decode("ascii")
            self.pos = match.end()
            self.pair(path, path_len, literal, len(literal))
            return JsonNumber(literal)
        raise self.syntax("a JSON value")

    def keyword(self, word: bytes) -> None:
        if self.body.startswith(word, self.pos):
            self.pos += len(word)
        else:
            raise self.syntax("a JSON value")

    def signature_value(self, depth: int) -> JsonValue:
        self.has_signature_key = True
        byte = self.peek()
        if byte == 0x6E:
            self.keyword(b"null")
            return None
        if byte == 0x22:
            text, _ = self.string()
            self.signature = text
            return text
        # Read it all first so that a syntax error is reported as such.
        saved = (self.unambiguous, len(self.pairs), self.pair_bytes)
        self.unambiguous = False
        self.value(depth, "signature", 9, in_object=True)
        self.unambiguous, count, self.pair_bytes = saved
        del self.pairs[count:]
        raise CanonicalError("signature_not_string", "`signature` is not a string")


@dataclass(frozen=True)
class Flattened:
    """The pairs of one JSON object body (without ``senderKey``) and what a signer or a
    verifier needs of it. Build it with :func:`parse`."""

    #: The parsed body (numbers as :class:`JsonNumber`, objects in document order).
    value: dict[str, JsonValue]
    #: The ``path=value`` pairs in document order (the top-level ``signature`` left out).
    pairs: tuple[str, ...]
    #: The top-level ``signature`` when it is a string.
    signature: str | None
    #: True when the body has a top-level ``signature`` member (even ``null``).
    has_signature_key: bool
    #: True when the body has a top-level ``senderKey`` (only without ``unambiguous``).
    has_sender_key_pair: bool
    #: The path of the first ``null`` (skipped in the canonical string), if any.
    first_null_path: str | None

    def _sorted(self, key_pair: str) -> list[str]:
        # Python compares strings by code points, which is the order of their UTF-8 bytes.
        return sorted([*self.pairs, key_pair])

    def canonical_string_exposing_key(self, key: PrivateKey) -> str:
        """The canonical string, with the key itself in the ``senderKey`` pair (to hash;
        never to print)."""
        return "&".join(self._sorted(SENDER_KEY + "=" + key.expose()))

    def canonical_string_redacted(self, key: PrivateKey) -> str:
        """The canonical string with the key shown as ``[redacted]`` wherever it appears:
        in the added pair, and inside any other pair."""
        secret = key.expose()
        out = []
        for pair in self._sorted(SENDER_KEY + "=" + secret):
            name, _, rest = pair.partition("=")
            if name == SENDER_KEY:
                out.append(SENDER_KEY + "=" + REDACTED)
            else:
                out.append(pair.replace(secret, REDACTED) if secret else pair)
        return "&".join(out)

    def digest(self, key: PrivateKey) -> bytes:
        """SHA-256 of the canonical string."""
        return hashlib.sha256(self.canonical_string_exposing_key(key).encode("utf-8")).digest()

    def signature_hex(self, key: PrivateKey) -> str:
        """The lowercase hex signature for ``key``."""
        return self.digest(key).hex()


def parse(body: bytes, *, unambiguous: bool = True, null_members: bool = RECEIVED_NULL_MEMBERS) -> Flattened:
    """Reads a JSON object body.

    With ``unambiguous`` (to sign or verify) a body that breaks a re-cut rule is refused
    with a :class:`CanonicalError` of kind ``ambiguous``; without it any object is read
    (to diagnose it), nulls skipped. ``null_members`` accepts a ``null`` object member
    (treated as absent; a received body may carry one), never a ``null`` array element.
    """
    if not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError("the body must be bytes")
    data = bytes(body)
    if len(data) > MAX_BODY:
        raise CanonicalError(
            "too_large", f"the body is longer than {MAX_BODY} bytes", offset=MAX_BODY
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CanonicalError(
            "invalid_utf8", f"body is not valid UTF-8 (byte {e.start})", offset=e.start
        ) from None
    parser = _Parser(data, unambiguous, null_members)
    value = parser.top()
    return Flattened(
        value=value,
        pairs=tuple(parser.pairs),
        signature=parser.signature,
        has_signature_key=parser.has_signature_key,
        has_sender_key_pair=parser.has_sender_key_pair,
        first_null_path=parser.first_null,
    )


def parse_for_signing(body: bytes) -> Flattened:
    """:func:`parse` for a signer: the re-cut rules, and a ``null`` anywhere refused (R2,
    at the first null; a message we send never holds one), as the Rust runtime's
    ``sign::sign``."""
    flat = parse(body, null_members=True)
    if flat.first_null_path is not None:
        raise CanonicalError.ambiguous(Ambiguity.NULL, flat.first_null_path)
    return flat
