"""Callback notifications: verify a received body, read its type and params, answer
:data:`ACK`, and remember what was processed across restarts.

A :class:`Verifier` accepts a body only when all of these hold, so that no other signed
message (an answer, another sender's notification, an old notification) passes for one:

- the signature holds over the exact bytes received, and the body could not be re-cut
  into another message (rules R1-R4, see :mod:`baas_runtime.canonical`);
- it is a notification: ``requestId``, ``notificationType``, ``timestamp`` and ``salt``
  are present, and the members of an answer (``code``, ``msg``, ``data``) are absent;
- its ``sender`` is the service's, as configured (the live sender name is opaque);
- its ``timestamp`` is at most :data:`DEFAULT_MAX_AGE` old and at most
  :data:`DEFAULT_MAX_SKEW` ahead of this machine's clock (both configurable).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import canonical
from .canonical import RECEIVED_NULL_MEMBERS, CanonicalError, JsonNumber, JsonValue
from .envelope import new_salt, now_millis, sign_envelope
from .errors import BaasError, DecodeError, SignatureInvalid, SignatureMissing, Untrusted
from .secret import PrivateKey
from .sign import VerifyError, verify_flattened
from .wire import WireObject

__all__ = [
    "ACK",
    "DEFAULT_MAX_AGE",
    "DEFAULT_MAX_SKEW",
    "Notification",
    "DeliveryId",
    "Verifier",
    "SeenFile",
    "signed_body",
]

#: The body to answer once a notification is processed (or known as a repeat).
ACK = "ok"
#: How old a notification's timestamp may be: 24 hours (seconds).
DEFAULT_MAX_AGE = 24 * 60 * 60.0
#: How far ahead of this clock a timestamp may be: 5 minutes (seconds).
DEFAULT_MAX_SKEW = 5 * 60.0

_ANSWER_MEMBERS = ("code", "msg", "data")


@dataclass(frozen=True)
class DeliveryId:
    """One notification across its deliveries: (``requestId``, ``notificationType``)."""

    request_id: str
    notification_type: str


@dataclass(frozen=True)
class Notification:
    """A verified notification."""

    #: The notification number, e.g. ``"0028"``.
    notification_type: str
    request_id: str
    sender: str | None
    locale: str | None
    #: Epoch milliseconds.
    timestamp: int
    #: The payload as received (``{}`` when absent; numbers as their literal text).
    params: JsonValue

    @property
    def delivery_id(self) -> DeliveryId:
        """The key of a repeated delivery: store it once processed."""
        return DeliveryId(self.request_id, self.notification_type)

    def ack(self) -> str:
        return ACK


def _text(top: dict[str, JsonValue], name: str, *, integer_ok: bool = False) -> str | None:
    value = top.get(name)
    if value is None:
        return None
    if isinstance(value, str) and (integer_ok or not isinstance(value, JsonNumber)):
        return str(value)
    raise DecodeError(f"not a notification: `{name}` is not a string")


def verify_body(body: bytes, key: PrivateKey) -> Notification:
    """The checks of :class:`Verifier` but the sender and the window."""
    try:
        flat = canonical.parse(body, null_members=RECEIVED_NULL_MEMBERS)
    except CanonicalError as e:
        if e.kind == "ambiguous":
            raise Untrusted(f"the notification could be re-cut into another message: {e}") from None
        raise DecodeError(f"notification is not a usable JSON object: {e}", body=body) from None
    try:
        verify_flattened(flat, key)
    except VerifyError as e:
        raise (SignatureMissing() if e.kind == "missing" else SignatureInvalid()) from None
    top = flat.value
    request_id = _text(top, "requestId")
    notification_type = _text(top, "notificationType", integer_ok=True)
    salt = _text(top, "salt")
    timestamp = top.get("timestamp")
    if (
        request_id is None
        or notification_type is None
        or salt is None
        or not isinstance(timestamp, JsonNumber)
        or not timestamp.lstrip("-").isdigit()
    ):
        raise DecodeError(
            "not a notification (requestId, notificationType, timestamp and salt are required)",
            body=body,
        )
    for name in _ANSWER_MEMBERS:
        if top.get(name) is not None:
            raise Untrusted(f"the body carries `{name}`, a member of an answer, not of a notification")
    params = top.get("params")
    return Notification(
        notification_type=notification_type,
        request_id=request_id,
        sender=_text(top, "sender"),
        locale=_text(top, "locale"),
        timestamp=int(timestamp),
        params={} if params is None else params,
    )


class Verifier:
    """Verifies received notification bodies for one partner key and the service's
    sender name (as your bank gives it)."""

    def __init__(
        self,
        key: PrivateKey,
        service_sender: str,
        *,
        max_age: float = DEFAULT_MAX_AGE,
        max_skew: float = DEFAULT_MAX_SKEW,
    ) -> None:
        self._key = key
        self.service_sender = service_sender
        self.max_age = max_age
        self.max_skew = max_skew

    def __repr__(self) -> str:
        return (
            f"Verifier(key={self._key!r}, service_sender={self.service_sender!r}, "
            f"max_age={self.max_age}, max_skew={self.max_skew})"
        )

    @property
    def window(self) -> float:
        """How long processed ids must be kept (seconds): the window into the past."""
        return self.max_age

    def verify(self, body: bytes, *, now_ms: int | None = None) -> Notification:
        """The notification, or :class:`DecodeError`, :class:`SignatureMissing`,
        :class:`SignatureInvalid` or :class:`Untrusted` (re-cut, an answer's members,
        another sender, outside the window)."""
        now = now_millis() if now_ms is None else now_ms
        n = verify_body(body, self._key)
        if n.sender != self.service_sender:
            raise Untrusted(
                f"the notification's sender is {n.sender or ''!r}, not the service's "
                f"{self.service_sender!r}"
            )
        age = now - n.timestamp
        if age > self.max_age * 1000:
            raise Untrusted(
                f"the notification is dated {n.timestamp}, more than {int(self.max_age)} s before "
                f"now ({now}): refused as stale (a replay, or a window shorter than the "
                "re-delivery schedule)"
            )
        if -age > self.max_skew * 1000:
            raise Untrusted(
                f"the notification is dated {n.timestamp}, more than {int(self.max_skew)} s after "
                f"now ({now}): check this machine's clock"
            )
        return n


class SeenFile:
    """The delivery ids a receiver processed, in an append-only file that survives a
    restart (one process at a time; with several receivers, keep them in your database
    under a unique key, in the transaction that processes the notification).

    Each line is ``<timestamp> <notificationType> <requestId>``; opening drops entries
    older than the window and rewrites the file."""

    def __init__(self, path: str | os.PathLike[str], window: float, *, now_ms: int | None = None) -> None:
        self.path = Path(path)
        self._seen: dict[DeliveryId, int] = {}
        now = now_millis() if now_ms is None else now_ms
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                parts = line.split(" ", 2)
                if len(parts) == 3 and parts[0].lstrip("-").isdigit():
                    stamp = int(parts[0])
                    if now - stamp <= window * 1000:
                        self._seen[DeliveryId(parts[2], parts[1])] = stamp
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for d, stamp in self._seen.items():
                f.write(f"{stamp} {d.notification_type} {d.request_id}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def is_new(self, delivery: DeliveryId) -> bool:
        return delivery not in self._seen

    def record(self, n: Notification) -> None:
        """Appends the notification's id, on disk before it returns (answer ``ok`` after)."""
        d = n.delivery_id
        if any(c in d.request_id + d.notification_type for c in " \r\n"):
            raise BaasError("a delivery id with spaces or line breaks cannot be recorded")
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(f"{n.timestamp} {d.notification_type} {d.request_id}\n")
            f.flush()
            os.fsync(f.fileno())
        self._seen[d] = n.timestamp


def signed_body(
    notification_type: str,
    request_id: str,
    sender: str,
    locale: str,
    params: WireObject,
    key: PrivateKey,
    *,
    timestamp_ms: int | None = None,
) -> bytes:
    """A notification as the service sends it, signed with ``key`` (for tests)."""
    return sign_envelope(
        {
            "requestId": request_id,
            "sender": sender,
            "notificationType": notification_type,
            "locale": locale,
            "timestamp": now_millis() if timestamp_ms is None else timestamp_ms,
            "salt": new_salt(),
            "params": params,
        },
        key,
    )
