"""Signing while serializing: an envelope the client sends is written once, and its pairs
are made on the way (the Rust runtime signs so too), instead of writing it and reading the
bytes back. :func:`baas_runtime.envelope.sign_envelope` uses it; whenever it cannot vouch
for an envelope (a null, a float, a key or a value a re-cut rule refuses, a number text that is
not JSON, nesting or expansion near a limit, a text that is not valid UTF-8) it returns None
and the envelope is signed the exact way, written then read by :func:`canonical.parse`, which
gives the same bytes and signature, or the refusal (tests/test_sign_writing.py holds the two
together)."""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_left
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .canonical import EXPANSION_ALLOWANCE, MAX_DEPTH, SENDER_KEY, reads_as_pair
from .secret import PrivateKey
from .wire import RawNumber

__all__ = ["sign_writing"]

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_R1 = re.compile(r"[&=.\[\]]")
_text = json.JSONEncoder(ensure_ascii=False).encode


def _byte_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class _Doubt(Exception):
    """The exact way signs (or refuses) this envelope."""


class _Writer:
    __slots__ = ("out", "pairs", "excess")

    def __init__(self) -> None:
        self.out: list[str] = []
        self.pairs: list[str] = []
        # The bound of canonical._fast on how far the pairs pass 32 times the bytes written
        # (counted for every member and element: more than the leaves, so safe).
        self.excess = 0

    def value(self, value: Any, path: str, depth: int) -> None:
        out = self.out
        if isinstance(value, bool):
            out.append("true" if value else "false")
            self.pair(path, "true" if value else "false")
        elif isinstance(value, RawNumber):
            text = str(value)
            if _NUMBER.fullmatch(text) is None:
                raise _Doubt
            out.append(text)
            self.pair(path, text)
        elif isinstance(value, str):
            if "&" in value and reads_as_pair(value):
                raise _Doubt  # R3
            out.append(_text(value))
            self.pair(path, value)
        elif isinstance(value, int):
            text = str(int(value))
            out.append(text)
            self.pair(path, text)
        elif isinstance(value, Decimal):
            if not value.is_finite():
                raise _Doubt
            text = format(value, "f")
            out.append(text)
            self.pair(path, text)
        elif isinstance(value, Mapping):
            self.obj(value, path + ".", depth + 1)
        elif isinstance(value, (list, tuple)):
            self.array(value, path, depth + 1)
        else:
            raise _Doubt  # None, a float, anything else: the exact way says why

    def pair(self, path: str, text: str) -> None:
        self.pairs.append(path + "=" + text)

    def obj(self, value: Mapping[str, Any], prefix: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _Doubt
        out = self.out
        if not value:
            out.append("{}")
            if depth > 1:
                self.pair(prefix[:-1], "{}")
            return
        if len(prefix) > 31:
            self.excess += len(value) * max(0, _byte_len(prefix) - 126)
        out.append("{")
        first = True
        for key, item in value.items():
            if type(key) is not str or not key or _R1.search(key) is not None:
                raise _Doubt  # R1, or not text
            if depth == 1 and key in (SENDER_KEY, "signature"):
                raise _Doubt  # R4, or signed already
            if not first:
                out.append(",")
            first = False
            out.append(_text(key))
            out.append(":")
            self.value(item, prefix + key, depth)
        out.append("}")

    def array(self, value: Any, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _Doubt
        out = self.out
        if not value:
            out.append("[]")
            self.pair(path, "[]")
            return
        self.excess += len(value) * max(0, _byte_len(path) + len(str(len(value) - 1)) - 28)
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            self.value(item, f"{path}[{index}]", depth)
        out.append("]")


def sign_writing(envelope: Mapping[str, Any], key: PrivateKey) -> bytes | None:
    """The envelope written and signed (the bytes to send), or None when the exact way is
    to sign it."""
    writer = _Writer()
    try:
        writer.obj(envelope, "", 1)
        body = "".join(writer.out).encode("utf-8")
    except (_Doubt, ValueError):  # ValueError: a lone surrogate, an int too long to write
        return None
    if writer.excess > EXPANSION_ALLOWANCE:
        return None  # near the expansion limit: the exact way counts
    pairs = writer.pairs
    pairs.sort()  # code point order: the order of UTF-8 bytes
    key_pair = SENDER_KEY + "=" + key.expose()
    pairs.insert(bisect_left(pairs, key_pair), key_pair)
    signature = hashlib.sha256("&".join(pairs).encode("utf-8")).hexdigest()
    comma = b"," if len(body) > 2 else b""
    return body[:-1] + comma + b'"signature":"' + signature.encode("ascii") + b'"}'
