"""The errors of the SDK: one base class, :class:`BaasError`, and a subclass per kind.

Every error a client call raises names its call: :attr:`BaasError.operation` (the spec
name, ``confirmOperation``), :attr:`BaasError.request_id` (of the last attempt: what to
look up, cancel or reconcile) and :attr:`BaasError.attempts`; its text starts with them.
:attr:`BaasError.outcome` says what is known of the call's effect. No error ever holds
the private key.
"""

from __future__ import annotations

import codecs
import enum
from typing import TYPE_CHECKING

from .secret import REDACTED, PrivateKey

if TYPE_CHECKING:
    from .validate import Violation

__all__ = [
    "SUCCESS_CODE",
    "SNIPPET_MAX_BYTES",
    "Outcome",
    "BaasError",
    "InvalidRequest",
    "ConfigError",
    "EncodeError",
    "TransportError",
    "CallTimeout",
    "ResponseTooLarge",
    "ApiError",
    "WaitDeadline",
    "OutcomeUnknown",
    "SignatureMissing",
    "SignatureInvalid",
    "DecodeError",
    "RequestIdMismatch",
    "Untrusted",
    "snippet",
]

#: Result code of a successful call.
SUCCESS_CODE = "00000"
#: Longest body excerpt kept in a :class:`DecodeError`, in bytes.
SNIPPET_MAX_BYTES = 256


class Outcome(enum.Enum):
    """What is known of a failed call's effect."""

    #: Nothing was sent (invalid request, configuration, encoding, or the connection
    #: provably never opened): safe to fix and send again.
    NOT_SENT = "not_sent"
    #: The service answered with a result code other than success, in an answer whose
    #: signature holds. An unsigned or wrongly signed refusal proves nothing: UNKNOWN.
    REFUSED = "refused"
    #: The bytes may have reached the service and no verified answer came back.
    UNKNOWN = "unknown"


class BaasError(Exception):
    """An error of the SDK (see the module's doc)."""

    operation: str | None
    request_id: str | None
    attempts: int

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.operation = None
        self.request_id = None
        self.attempts = 0

    def in_call(self, operation: str, request_id: str | None, attempts: int) -> BaasError:
        """This error, said of a call (the client does it for every error it raises)."""
        self.operation = operation
        self.request_id = request_id
        self.attempts = attempts
        return self

    @property
    def may_have_reached_service(self) -> bool:
        """False only when the request bytes provably never reached the service."""
        return True

    def is_retryable(self) -> bool:
        """True when trying again may succeed (never for :class:`OutcomeUnknown`). A
        method, as in Rust (``error.is_retryable()``; a property until baas-runtime 0.3.0)."""
        return False

    @property
    def outcome(self) -> Outcome:
        return Outcome.UNKNOWN if self.may_have_reached_service else Outcome.NOT_SENT

    @property
    def api_code(self) -> str | None:
        """The service's result code, for an :class:`ApiError`."""
        return None

    def __str__(self) -> str:
        if self.operation is None:
            return self.message
        attempts = "1 attempt" if self.attempts == 1 else f"{self.attempts} attempts"
        if self.request_id is not None:
            return f"{self.operation} (requestId {self.request_id}, {attempts}): {self.message}"
        return f"{self.operation} ({attempts}): {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class _NotSent(BaasError):
    @property
    def may_have_reached_service(self) -> bool:
        return False


class InvalidRequest(_NotSent):
    """The request breaks rules of the spec; nothing was signed or sent. ``violations``
    names each field and rule."""

    def __init__(self, violations: list[Violation]) -> None:
        n = len(violations)
        listed = "; ".join(str(v) for v in violations)
        super().__init__(f"invalid request: {n} rule{'' if n == 1 else 's'} violated: {listed}")
        self.violations = list(violations)


class ConfigError(_NotSent):
    """The configuration cannot be used (``field`` names the setting)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"invalid configuration `{field}`: {message}")
        self.field = field


class EncodeError(_NotSent):
    """The request could not be serialized or signed; nothing was sent."""

    def __init__(self, message: str) -> None:
        super().__init__(f"cannot encode the request: {message}")


class TransportError(BaasError):
    """The HTTP exchange failed."""

    def __init__(self, message: str, *, may_have_reached_service: bool) -> None:
        reached = (
            "the request may have reached the service"
            if may_have_reached_service
            else "the request did not leave"
        )
        super().__init__(f"transport error: {message} ({reached})")
        self._reached = may_have_reached_service

    @property
    def may_have_reached_service(self) -> bool:
        return self._reached

    def is_retryable(self) -> bool:
        return True


class CallTimeout(BaasError):
    """No complete response within the time limit (``after``, in seconds)."""

    def __init__(self, after: float, *, may_have_reached_service: bool = True) -> None:
        reached = (
            "the request may have reached the service"
            if may_have_reached_service
            else "no connection was made"
        )
        super().__init__(f"no response within {round(after * 1000)} ms ({reached})")
        self.after = after
        self._reached = may_have_reached_service

    @property
    def may_have_reached_service(self) -> bool:
        return self._reached

    def is_retryable(self) -> bool:
        return True


class ResponseTooLarge(BaasError):
    """The response body exceeds the configured limit (``limit`` bytes)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"response body larger than the limit of {limit} bytes")
        self.limit = limit


class ApiError(BaasError):
    """The service answered with a result code other than ``00000``.

    ``verified`` is False when the answer was unsigned (the document allows failures
    with only code and msg) or its signature did not hold: its content is then not
    authenticated and the outcome is UNKNOWN, not REFUSED. ``retryable`` says whether the
    spec marks the code retryable. ``response_request_id`` is the requestId the answer
    echoes, when it carries one.
    """

    def __init__(
        self,
        code: str,
        msg: str,
        *,
        response_request_id: str | None,
        verified: bool,
        retryable: bool = False,
    ) -> None:
        text = f"API error {code}: {msg}"
        if response_request_id is not None:
            text += f" (requestId {response_request_id})"
        if not verified:
            text += " [response not verified: unsigned or signature mismatch]"
            if code == "12005":
                text += "; check the private key and the signed text with `python -m baas_client sign`"
        super().__init__(text)
        self.code = code
        self.msg = msg
        self.response_request_id = response_request_id
        self.verified = verified
        self.retryable = retryable

    @property
    def api_code(self) -> str | None:
        return self.code

    def is_retryable(self) -> bool:
        return self.retryable

    @property
    def outcome(self) -> Outcome:
        return Outcome.REFUSED if self.verified else Outcome.UNKNOWN


class WaitDeadline(BaasError):
    """A status query reported no final state before the deadline; the operation it
    follows may still complete. ``last_state`` is the last state seen, if any."""

    def __init__(self, last_state: str | None, after: float) -> None:
        super().__init__(
            f"no final state reported within {int(after)} s (last state: {last_state or 'none'})"
        )
        self.last_state = last_state
        self.after = after


class OutcomeUnknown(BaasError):
    """A call that may move money failed after its bytes may have reached the service,
    without a verified answer: it may have taken effect. Never retried: look it up
    first (by :attr:`request_id`, or with the operation's query call). ``cause`` is the
    failure of the last attempt (also ``__cause__``)."""

    def __init__(self, cause: BaasError) -> None:
        super().__init__(
            f"may have taken effect: {cause.message}; look the application up before "
            "sending it again"
        )
        self.cause = cause
        self.__cause__ = cause

    @property
    def outcome(self) -> Outcome:
        return Outcome.UNKNOWN


class SignatureMissing(BaasError):
    """The received answer or notification carries no signature."""

    def __init__(self) -> None:
        super().__init__(
            "the received response or notification carries no signature, so it is refused "
            "(a success response without one is accepted only with "
            "Config.accept_unsigned_success)"
        )


class SignatureInvalid(BaasError):
    """The signature of the received answer or notification does not hold."""

    def __init__(self) -> None:
        super().__init__(
            "the signature of the received response or notification does not verify: check "
            "that the configured private key is the one the service signs with, and compare "
            "the received body with `python -m baas_client sign --verify`"
        )


class DecodeError(BaasError):
    """The response (or a JSON value) could not be decoded. ``status`` is the HTTP
    status when there was one; ``snippet`` the first bytes of the body."""

    def __init__(self, message: str, *, status: int | None = None, body: bytes = b"") -> None:
        self.status = status
        self.snippet = snippet(body)
        self.detail = message
        super().__init__(self._text())

    def _text(self) -> str:
        text = "cannot decode the response"
        if self.status is not None:
            text += f" (HTTP {self.status})"
        return f"{text}: {self.detail}; body starts {self.snippet!r}"

    def redacting(self, key: PrivateKey) -> DecodeError:
        """This error with the key written ``[redacted]`` wherever it quotes what was
        received (also a start of the key cut off by the snippet's end): a received body may
        hold the key, and errors get logged. As in Java and PHP."""
        self.detail = key.redact(self.detail)
        self.snippet = redact_quoted(self.snippet, key)
        self.message = self._text()
        self.args = (self.message,)
        return self

    def is_retryable(self) -> bool:
        return self.status in (502, 503, 504)


class RequestIdMismatch(BaasError):
    """The answer's requestId does not echo the request's."""

    def __init__(self, expected: str, received: str | None) -> None:
        if received is None:
            text = f"response has no requestId (expected `{expected}`)"
        else:
            text = f"response requestId `{received}` does not echo `{expected}`"
        super().__init__(text)
        self.expected = expected
        self.received = received


class Untrusted(BaasError):
    """A received body was refused although it may carry a valid signature: it could be
    re-cut into another message, carries members of another kind of message, comes from
    another sender, or is outside the notification window. Treat it as unsigned."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"received body refused: {reason}")
        self.reason = reason


def redact_quoted(text: str, key: PrivateKey) -> str:
    """``text`` (a snippet of a received body) with every occurrence of the key replaced by
    ``[redacted]``, and, when the snippet was cut (``…``), a start of the key the cut left
    at its end too."""
    secret = key.expose()
    whole = key.redact(text)
    if secret and whole.endswith("…"):
        head = whole[:-1]
        for i in range(len(head)):
            if secret.startswith(head[i:]):
                return head[:i] + REDACTED + "…"
    return whole


def snippet(body: bytes) -> str:
    """At most :data:`SNIPPET_MAX_BYTES` bytes of text from the start of a body (invalid
    UTF-8 shown as U+FFFD, a character split by the cut left out), with ``…`` when
    something was cut."""
    head = body[:SNIPPET_MAX_BYTES]
    cut = len(body) > len(head)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    text = decoder.decode(head, final=not cut)
    encoded = text.encode("utf-8")
    if len(encoded) > SNIPPET_MAX_BYTES:
        text = encoded[:SNIPPET_MAX_BYTES].decode("utf-8", errors="ignore")
        cut = True
    return text + "…" if cut else text
