"""Message envelopes: building and signing requests, opening and verifying answers.

Besides what the client uses, :func:`signed_response_body` and :func:`verify_request`
are tools for test servers (the mock transport uses them).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from . import canonical
from .canonical import RECEIVED_NULL_MEMBERS, Ambiguity, CanonicalError, Flattened, JsonValue
from .errors import (
    SUCCESS_CODE,
    ApiError,
    DecodeError,
    EncodeError,
    RequestIdMismatch,
    SignatureInvalid,
    SignatureMissing,
    Untrusted,
)
from ._sign_writing import sign_writing
from .secret import PrivateKey
from .sign import VerifyError, attach_signature, verify_flattened
from .wire import WireObject, WireShapeError, WireValue, dumps, str_of

__all__ = [
    "new_request_id",
    "new_salt",
    "now_millis",
    "SignedRequest",
    "sign_request",
    "Answer",
    "open_response",
    "signed_response_body",
    "ReceivedRequest",
    "verify_request",
]


def new_request_id(sender: str) -> str:
    """A new requestId: the sender followed by 32 random hex digits."""
    return sender + secrets.token_hex(16)


def new_salt() -> str:
    """A new salt: 24 random hex digits from the operating system's CSPRNG."""
    return secrets.token_hex(12)


def now_millis() -> int:
    """Now, in epoch milliseconds."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class SignedRequest:
    """A signed request: its requestId (the answer must echo it) and the exact bytes."""

    request_id: str
    body: bytes


def _check_request_id(request_id: str) -> None:
    if not request_id or not all("!" <= c <= "~" for c in request_id):
        raise EncodeError(
            f"requestId {request_id!r} must be non-empty printable ASCII without spaces"
        )


def sign_envelope(envelope: WireObject, key: PrivateKey) -> bytes:
    """Serializes an envelope without ``signature``, signs those bytes and splices the
    signature in. Nothing is signed that could be re-cut (rules R1-R4) or holds a null.
    The pairs are made as the envelope is written (``_sign_writing``); what that cannot vouch
    for is written, then read back by the exact reader, which refuses it or signs it."""
    signed = sign_writing(envelope, key)
    if signed is not None:
        return signed
    return _sign_envelope_exactly(envelope, key)


def _sign_envelope_exactly(envelope: WireObject, key: PrivateKey) -> bytes:
    try:
        body = dumps(envelope)
    except ValueError as e:
        raise EncodeError(str(e)) from None
    try:
        flat = canonical.parse_for_signing(body)
    except CanonicalError as e:
        if e.kind == "ambiguous" and e.rule is Ambiguity.NULL:
            raise EncodeError(f"`{e.path}` is null; a null is never sent (leave the field out)") from None
        raise EncodeError(f"{e}; such a message is never signed") from None
    if flat.has_signature_key:
        raise EncodeError("the body already has a `signature` (sign it without one)")
    return attach_signature(body, flat.signature_hex(key))


def sign_request(
    params: WireObject,
    *,
    sender: str,
    locale: str,
    key: PrivateKey,
    request_id: str | None = None,
) -> SignedRequest:
    """The envelope of ``params`` (a new requestId unless given, timestamp, salt),
    serialized and signed over those exact bytes."""
    rid = new_request_id(sender) if request_id is None else request_id
    _check_request_id(rid)
    envelope: WireObject = {
        "requestId": rid,
        "sender": sender,
        "locale": locale,
        "timestamp": now_millis(),
        "salt": new_salt(),
        "params": params,
    }
    return SignedRequest(rid, sign_envelope(envelope, key))


@dataclass(frozen=True)
class Answer:
    """A verified success: its ``data`` (``{}`` when absent) and the requestId echoed."""

    data: JsonValue
    request_id: str


def _flatten_received(status: int | None, body: bytes) -> Flattened:
    try:
        return canonical.parse(body, null_members=RECEIVED_NULL_MEMBERS)
    except CanonicalError as e:
        if e.kind == "ambiguous":
            raise Untrusted(f"it could be re-cut into another message: {e}") from None
        raise DecodeError(f"body is not a usable JSON object: {e}", status=status, body=body) from None


def open_response(
    status: int | None,
    body: bytes,
    key: PrivateKey,
    *,
    request_id: str,
    accept_unsigned_success: bool = False,
) -> Answer:
    """Opens an answer: a JSON object that could not be re-cut, no member of another kind
    of message, a ``code``, a signature that holds (an unsigned or wrongly signed
    refusal is an unverified :class:`ApiError`), the requestId echoed; a code other than
    ``00000`` raises :class:`ApiError`. What a :class:`DecodeError` quotes of the body never
    shows the key."""
    try:
        return _open_checked(
            status, body, key, request_id=request_id, accept_unsigned_success=accept_unsigned_success
        )
    except DecodeError as e:
        raise e.redacting(key) from None


def _open_checked(
    status: int | None,
    body: bytes,
    key: PrivateKey,
    *,
    request_id: str,
    accept_unsigned_success: bool,
) -> Answer:
    flat = _flatten_received(status, body)
    top = flat.value
    for name in ("notificationType", "params"):
        if top.get(name) is not None:
            raise Untrusted(f"the answer carries `{name}`, a member of another kind of message")
    try:
        code = str_of(top.get("code"), "code")
        echoed = top.get("requestId")
        if echoed is not None and not isinstance(echoed, str):
            raise WireShapeError("requestId", "a string", echoed)
        msg = top.get("msg")
        if msg is not None and not isinstance(msg, str):
            raise WireShapeError("msg", "a string", msg)
    except WireShapeError as e:
        raise DecodeError(f"cannot decode the response envelope: {e}", status=status, body=body) from None
    if code is None:
        raise DecodeError("the response has no `code`", status=status, body=body)
    success = code == SUCCESS_CODE
    try:
        verify_flattened(flat, key)
        verified = True
    except VerifyError as e:
        if not success:
            verified = False
        elif e.kind == "missing" and accept_unsigned_success:
            verified = False
        elif e.kind == "missing":
            raise SignatureMissing() from None
        else:
            raise SignatureInvalid() from None
    if echoed != request_id and not (echoed is None and not verified and not success):
        raise RequestIdMismatch(request_id, echoed if isinstance(echoed, str) else None)
    if not success:
        raise ApiError(
            code,
            msg if isinstance(msg, str) else "",
            response_request_id=echoed if isinstance(echoed, str) else None,
            verified=verified,
        )
    data = top.get("data")
    return Answer({} if data is None else data, request_id)


def signed_response_body(
    *,
    request_id: str,
    sender: str,
    locale: str,
    code: str,
    msg: str,
    data: WireObject | None,
    key: PrivateKey,
) -> bytes:
    """Tool for test servers: a signed answer (fresh timestamp and salt), with ``data``
    when given, signed with the partner's key as the service does."""
    envelope: dict[str, WireValue] = {
        "requestId": request_id,
        "sender": sender,
        "locale": locale,
        "timestamp": now_millis(),
        "salt": new_salt(),
        "code": code,
        "msg": msg,
    }
    if data is not None:
        envelope["data"] = data
    return sign_envelope(envelope, key)


@dataclass(frozen=True)
class ReceivedRequest:
    """A verified request, as a test server sees it."""

    request_id: str
    sender: str
    locale: str
    timestamp: int
    salt: str
    params: dict[str, JsonValue]


def verify_request(body: bytes, key: PrivateKey) -> ReceivedRequest:
    """Tool for test servers: verifies a received request and returns its envelope."""
    try:
        flat = canonical.parse(body)
    except CanonicalError as e:
        raise DecodeError(f"body is not a usable JSON object: {e}", body=body) from None
    try:
        verify_flattened(flat, key)
    except VerifyError as e:
        raise (SignatureMissing() if e.kind == "missing" else SignatureInvalid()) from None
    top = flat.value
    fields = {name: top.get(name) for name in ("requestId", "sender", "locale", "salt")}
    if not all(isinstance(v, str) for v in fields.values()):
        raise DecodeError("the request envelope lacks requestId, sender, locale or salt", body=body)
    timestamp = top.get("timestamp")
    params = top.get("params")
    if not isinstance(timestamp, canonical.JsonNumber) or not timestamp.lstrip("-").isdigit():
        raise DecodeError("the request's timestamp is not an integer", body=body)
    if params is not None and not isinstance(params, dict):
        raise DecodeError("the request's params is not an object", body=body)
    return ReceivedRequest(
        request_id=str(fields["requestId"]),
        sender=str(fields["sender"]),
        locale=str(fields["locale"]),
        timestamp=int(timestamp),
        salt=str(fields["salt"]),
        params=params if isinstance(params, dict) else {},
    )
