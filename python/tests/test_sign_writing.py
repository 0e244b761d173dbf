"""Signing while serializing (baas_runtime._sign_writing) against the exact way (write, then
read the bytes back with canonical.parse): on seeded random envelopes, the same bytes sent, or
the same refusal (EncodeError with the same words)."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest

from baas_runtime import envelope as env
from baas_runtime._sign_writing import sign_writing
from baas_runtime.errors import EncodeError
from baas_runtime.secret import PrivateKey
from baas_runtime.sign import verify
from baas_runtime.wire import RawNumber

KEY = PrivateKey("writing-key")
TEXTS = ["plain", "", "é日本🎉", 'quote " and \\ back', "tab\there\n", "\u2028", "Tom & Jerry", "a=b&c",
         "x&data.result[1].amount=9", "\x00\x1f", "100.50", "https://x.example/?a=1"]
KEYS = ["a", "b", "amount", "日本", "k-1", "Z", "a.b", "a&b", "", "x]", "senderKey", "signature"]


def _value(r: random.Random, depth: int) -> Any:
    roll = r.random()
    if depth < 4 and roll < 0.15:
        return {_key(r): _value(r, depth + 1) for _ in range(r.randint(0, 4))}
    if depth < 4 and roll < 0.25:
        return [_value(r, depth + 1) for _ in range(r.randint(0, 4))]
    if roll < 0.55:
        return r.choice(TEXTS)
    if roll < 0.65:
        return r.choice([0, -1, 7, 10**20, True, False])
    if roll < 0.75:
        return Decimal(r.choice(["100.50", "0", "-0.00", "1E+3", "1e-7", "12345678901234567890.1"]))
    if roll < 0.85:
        return RawNumber(r.choice(["100.50", "1e400", "-0", "01", "1.", "abc"]))
    if roll < 0.9:
        return r.choice([None, 1.5, Decimal("NaN"), object(), "\ud800"])
    return {}


def _key(r: random.Random) -> str:
    return r.choice(KEYS[:6]) if r.random() < 0.9 else r.choice(KEYS)


def _exactly(envelope: Any) -> bytes | str:
    try:
        return env._sign_envelope_exactly(envelope, KEY)
    except EncodeError as e:
        return f"EncodeError: {e}"


def _now(envelope: Any) -> bytes | str:
    try:
        return env.sign_envelope(envelope, KEY)
    except EncodeError as e:
        return f"EncodeError: {e}"


def test_signing_while_writing_gives_the_exact_bytes_or_refusal() -> None:
    r = random.Random(20261128)
    written = 0
    for _ in range(3000):
        envelope = {_key(r): _value(r, 1) for _ in range(r.randint(0, 6))}
        assert _now(envelope) == _exactly(envelope), envelope
        if sign_writing(envelope, KEY) is not None:
            written += 1
            verify(env.sign_envelope(envelope, KEY), KEY)
    assert written > 500  # most envelopes are signed while written, not only the easy ones


def _nested(levels: int) -> Any:
    value: Any = 1
    for i in range(levels):
        value = [value] if i % 2 else {"n": value}
    return value


@pytest.mark.parametrize(
    "envelope",
    [
        {"a": {"b": [{"c": None}]}},
        {"deep": _nested(62)},
        {"deep": _nested(63)},
        {"deep": _nested(64)},
        {"k" * 4000: list(range(3000))},
        {"k" * 200: [list(range(400))]},
        {"signature": "x"},
        {"senderKey": "x"},
        {"a": [1, None]},
        {},
    ],
)
def test_limits_and_edges_go_the_exact_way(envelope: dict[str, Any]) -> None:
    assert _now(envelope) == _exactly(envelope)
