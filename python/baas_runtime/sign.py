"""Signing and verification of message bodies (requests, responses, notifications).

A request is signed over the exact bytes that are sent: the envelope is serialized
without ``signature``, those bytes are flattened and hashed, and ``,"signature":"<hex>"``
is spliced in before the final ``}`` (:func:`attach_signature`). A received body is
verified over its own bytes, numbers as their literal text. Signatures are compared in
constant time.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from .canonical import RECEIVED_NULL_MEMBERS, CanonicalError, Flattened, parse, parse_for_signing
from .secret import PrivateKey

__all__ = [
    "sign",
    "verify",
    "verify_flattened",
    "VerifyError",
    "Check",
    "check",
    "attach_signature",
    "sign_and_attach",
    "constant_time_eq",
]


def constant_time_eq(a: str, b: str) -> bool:
    """Equality in time independent of where the texts differ."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def sign(body: bytes, key: PrivateKey) -> str:
    """Lowercase hex signature of a JSON object body (its top-level ``signature`` left
    out). A body that breaks a re-cut rule is refused (:class:`CanonicalError`, kind
    ``ambiguous``): nothing is signed that a verifier would refuse."""
    return parse_for_signing(body).signature_hex(key)


class VerifyError(ValueError):
    """Why a body does not verify: ``kind`` is ``malformed`` (``cause`` is the
    :class:`CanonicalError`), ``missing`` or ``mismatch``."""

    def __init__(self, kind: str, cause: CanonicalError | None = None) -> None:
        text = {
            "malformed": f"cannot verify: {cause}",
            "missing": "the body has no signature",
            "mismatch": "the signature does not match the body",
        }[kind]
        super().__init__(text)
        self.kind = kind
        self.cause = cause


def verify_flattened(flat: Flattened, key: PrivateKey) -> None:
    """Verifies an already flattened body (flatten it with ``unambiguous``)."""
    if flat.signature is None:
        raise VerifyError("missing")
    if not constant_time_eq(flat.signature_hex(key), flat.signature):
        raise VerifyError("mismatch")


def verify(body: bytes, key: PrivateKey, *, null_members: bool = RECEIVED_NULL_MEMBERS) -> Flattened:
    """Verifies the top-level ``signature`` of a received body and returns it flattened.
    A body that breaks a re-cut rule is refused before its signature is looked at."""
    try:
        flat = parse(body, null_members=null_members)
    except CanonicalError as e:
        raise VerifyError("malformed", e) from None
    verify_flattened(flat, key)
    return flat


@dataclass(frozen=True)
class Check:
    """What the signature of a body should be, and the one it carries."""

    expected: str
    received: str | None

    def holds(self) -> bool:
        return self.received is not None and constant_time_eq(self.expected, self.received)


def check(body: bytes, key: PrivateKey, *, null_members: bool = RECEIVED_NULL_MEMBERS) -> Check:
    """The expected signature of a body and the one it carries (for debugging tools);
    a body that breaks a re-cut rule is refused as :func:`verify` refuses it."""
    flat = parse(body, null_members=null_members)
    return Check(expected=flat.signature_hex(key), received=flat.signature)


_WHITESPACE = b" \t\n\r\x0b\x0c"


def attach_signature(body: bytes, signature_hex: str) -> bytes:
    """Splices ``,"signature":"<hex>"`` before the final ``}`` of a serialized JSON
    object that has no ``signature`` yet: the sent text is the signed text plus it."""
    text = bytes(body).rstrip(_WHITESPACE)
    if not text.endswith(b"}"):
        raise CanonicalError("not_an_object", "body is not a JSON object")
    head = text[:-1].rstrip(_WHITESPACE)
    if not head:
        raise CanonicalError("not_an_object", "body is not a JSON object")
    comma = b"" if head.endswith(b"{") else b","
    return text[:-1] + comma + b'"signature":"' + signature_hex.encode("ascii") + b'"}'


def sign_and_attach(body: bytes, key: PrivateKey) -> bytes:
    """Signs a serialized JSON object and returns the text to send. A body that already
    has a top-level ``signature`` (even ``null``) is refused (kind ``already_signed``),
    one that breaks a re-cut rule too (kind ``ambiguous``)."""
    flat = parse_for_signing(body)
    if flat.has_signature_key:
        raise CanonicalError(
            "already_signed", "the body already has a `signature` (sign it without one)"
        )
    return attach_signature(body, flat.signature_hex(key))
