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
from .errors import DecodeError, SignatureInvalid, SignatureMissing, Untrusted
from .secret import PrivateKey
from .sign import VerifyError, verify_flattened
from .wire import WireObject

__all__ = [
    "ACK",
    "DEFAULT_MAX_AGE",
    "DEFAULT_MAX_SKEW",
    "DEFAULT_KEEP",
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


def _text(top: dict[str, JsonValue], name: str) -> str | None:
    value = top.get(name)
    if value is None:
        return None
    if isinstance(value, str) and not isinstance(value, JsonNumber):
        return str(value)
    raise DecodeError(f"not a notification: `{name}` is not a string")


def verify_body(body: bytes, key: PrivateKey) -> Notification:
    """The checks of :class:`Verifier` but the sender and the window. What a
    :class:`DecodeError` quotes of the body never shows the key."""
    try:
        return _checked_body(body, key)
    except DecodeError as e:
        raise e.redacting(key) from None


def _checked_body(body: bytes, key: PrivateKey) -> Notification:
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
    # A JSON string, as the service sends it ("0028"); a number (28, 28.0, -28) is refused
    # in every language (the shared vectors' notification_types).
    notification_type = _text(top, "notificationType")
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


#: How long a :class:`SeenFile` keeps an id by default, counted from when it was
#: recorded: 30 days (seconds). It must outlast every re-delivery: the service re-signs a
#: re-delivery with a fresh timestamp, so after an outage longer than the verifier's
#: window only the id tells that a notification was processed.
DEFAULT_KEEP = 30 * 24 * 60 * 60.0

_SEEN_HEADER = (
    "# baas seen-notifications v2: <recorded epoch ms> <notificationType> <requestId>, %XX-escaped"
)


def _escape(text: str) -> str:
    # Every byte outside "!".."~", and "%", as %XX: the line is ASCII, so nothing in an
    # id (space, CR, LF, U+2028, U+0085, VT, FS...) splits or changes it.
    return "".join(
        chr(b) if 0x21 <= b <= 0x7E and b != 0x25 else f"%{b:02X}"
        for b in text.encode("utf-8", "surrogatepass")
    )


def _unescape(field: str) -> str | None:
    out = bytearray()
    i = 0
    while i < len(field):
        c = field[i]
        if c == "%":
            hex_digits = field[i + 1 : i + 3]
            if len(hex_digits) != 2 or not all(h in "0123456789abcdefABCDEF" for h in hex_digits):
                return None
            out.append(int(hex_digits, 16))
            i += 3
        elif 0x21 <= ord(c) <= 0x7E:
            out.append(ord(c))
            i += 1
        else:
            return None
    try:
        return out.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


def _seen_line(d: DeliveryId, recorded: int) -> str:
    return f"{recorded} {_escape(d.notification_type)} {_escape(d.request_id)}\n"


class SeenFile:
    """The delivery ids a receiver processed, in an append-only file that survives a
    restart (one process at a time; with several receivers, keep them in your database
    under a unique key, in the transaction that processes the notification).

    Each id is kept for ``keep`` seconds (default :data:`DEFAULT_KEEP`, 30 days) counted
    from when it was **recorded**, never from the notification's timestamp: a
    re-delivery re-signed after a long outage is fresh by its timestamp and must still be
    known by its id. Any id is kept exactly: one ASCII line per id,
    ``<recorded ms> <notificationType> <requestId>`` with every byte outside ``!``..``~``
    and ``%`` written ``%XX`` (the format the Rust and TypeScript stores read and write).
    Opening drops ids older than ``keep`` and rewrites the file; a file of the first
    format (``<timestamp> <type> <requestId>``) is read and rewritten.

    :meth:`record` never refuses an id. It keeps the id in memory first, then appends it
    and flushes it to disk; if that write fails it raises ``OSError``: the id is still
    known to this process (acknowledge a re-delivery), and the line is written again with
    the next record. Only a restart before a write succeeds processes it again."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        keep: float = DEFAULT_KEEP,
        *,
        now_ms: int | None = None,
    ) -> None:
        self.path = Path(path)
        self._seen: dict[DeliveryId, int] = {}
        self._unwritten = ""
        now = now_millis() if now_ms is None else now_ms
        oldest = now - keep * 1000
        if self.path.exists():
            lines = self.path.read_bytes().split(b"\n")
            current = lines[0] == _SEEN_HEADER.encode("ascii")
            for raw in lines[1:] if current else lines:
                parsed = self._parse(raw) if current else self._parse_legacy(raw)
                # A line cut short by a crash is skipped.
                if parsed is not None and parsed[1] >= oldest:
                    self._seen[parsed[0]] = parsed[1]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="ascii", newline="\n") as f:
            f.write(_SEEN_HEADER + "\n")
            for d, stamp in sorted(self._seen.items(), key=lambda kv: kv[1]):
                f.write(_seen_line(d, stamp))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    @staticmethod
    def _parse(raw: bytes) -> tuple[DeliveryId, int] | None:
        parts = raw.decode("ascii", "replace").split(" ")
        if len(parts) != 3 or not parts[0].lstrip("-").isdigit():
            return None
        kind, request_id = _unescape(parts[1]), _unescape(parts[2])
        if kind is None or request_id is None:
            return None
        return DeliveryId(request_id, kind), int(parts[0])

    @staticmethod
    def _parse_legacy(raw: bytes) -> tuple[DeliveryId, int] | None:
        parts = raw.decode("utf-8", "replace").split(" ", 2)
        if len(parts) != 3 or not parts[0].lstrip("-").isdigit():
            return None
        return DeliveryId(parts[2], parts[1]), int(parts[0])

    def is_new(self, delivery: DeliveryId) -> bool:
        return delivery not in self._seen

    def __len__(self) -> int:
        return len(self._seen)

    def record(self, n: Notification, *, now_ms: int | None = None) -> None:
        """Records the notification's id: known to this process at once, on disk before it
        returns (answer ``ok`` after). Raises ``OSError`` only when the file cannot be
        written (see the class)."""
        now = now_millis() if now_ms is None else now_ms
        d = n.delivery_id
        self._unwritten += _seen_line(d, now)
        self._seen[d] = now
        with open(self.path, "a", encoding="ascii", newline="\n") as f:
            f.write(self._unwritten)
            f.flush()
            os.fsync(f.fileno())
        self._unwritten = ""


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
