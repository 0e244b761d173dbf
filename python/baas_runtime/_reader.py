"""The exact one-pass reader of a JSON object body: the reference for what
:func:`baas_runtime.canonical.parse` accepts, refuses and flattens.

:func:`~baas_runtime.canonical.parse` first reads a body with Python's own ``json`` module
(much faster); whenever that fast reading is not certain to give what this reader gives (a
refusal, a lone surrogate escape, a body near a limit), the body is read again here, so that
every refusal carries this reader's kind, offset, path and rule. It refuses, in time linear in
the body, what the Rust runtime refuses (``runtime/src/canonical.rs``).
"""

from __future__ import annotations

import json
import re

from .canonical import (
    EXPANSION_ALLOWANCE,
    MAX_DEPTH,
    MAX_EXPANSION,
    SENDER_KEY,
    Ambiguity,
    CanonicalError,
    JsonNumber,
    JsonValue,
    _bad_key,
    reads_as_pair,
)

__all__ = ["Reader"]

_WS = re.compile(rb"[ \t\n\r]*")
# The unrolled loop (plain runs between escapes): linear, no backtracking blow-up.
_STRING = re.compile(
    rb'"([^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*)"'
)
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")


class Reader:
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
        #: The paths of the nulls skipped (members; elements too when not ``unambiguous``).
        self.nulls: list[str] = []

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
            self.nulls.append(path)
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
