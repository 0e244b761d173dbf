"""``baas-runtime``: the hand-written behaviour under the generated Python SDK
(``baas_client``): signing over the exact bytes sent, verification over the exact bytes
received, the envelope, transports (httpx, blocking and asyncio), errors with their
outcome, retries, paging, waiting, notifications and a mock of the service.

Partners import ``baas_client``, which re-exports what they need from here. Each name is
imported from its module when first used (PEP 562), so that importing the package costs
little and a call loads what it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .canonical import Ambiguity, CanonicalError, JsonNumber, JsonValue
    from .client import (
        AsyncPages,
        AsyncRuntimeClient,
        Page,
        Pages,
        RuntimeClient,
        Success,
        WaitPolicy,
    )
    from .config import CallOptions, Config
    from .document import Document
    from .errors import (
        SUCCESS_CODE,
        ApiError,
        BaasError,
        CallTimeout,
        ConfigError,
        DecodeError,
        EncodeError,
        InvalidRequest,
        Outcome,
        OutcomeUnknown,
        RequestIdMismatch,
        ResponseTooLarge,
        SignatureInvalid,
        SignatureMissing,
        TransportError,
        Untrusted,
        WaitDeadline,
    )
    from .operation import PagedRequest, Request
    from .record import Record
    from .secret import REDACTED, PrivateKey
    from .settle import Confirmed, NotConfirmed, Settlement, StillUnknown
    from .transport import AsyncHttpxTransport, AsyncTransport, HttpxTransport, Transport
    from .validate import FieldPath, RuleKind, Validator, Violation
    from .wire import Scalar, Unknown

__version__ = "0.3.3"

__all__ = [
    "Ambiguity",
    "ApiError",
    "AsyncHttpxTransport",
    "AsyncPages",
    "AsyncRuntimeClient",
    "AsyncTransport",
    "BaasError",
    "CallOptions",
    "CallTimeout",
    "CanonicalError",
    "Config",
    "ConfigError",
    "Confirmed",
    "DecodeError",
    "Document",
    "EncodeError",
    "FieldPath",
    "HttpxTransport",
    "InvalidRequest",
    "JsonNumber",
    "JsonValue",
    "NotConfirmed",
    "Scalar",
    "Outcome",
    "OutcomeUnknown",
    "Page",
    "PagedRequest",
    "Pages",
    "PrivateKey",
    "REDACTED",
    "Record",
    "Request",
    "RequestIdMismatch",
    "ResponseTooLarge",
    "RuleKind",
    "RuntimeClient",
    "SUCCESS_CODE",
    "Settlement",
    "SignatureInvalid",
    "SignatureMissing",
    "StillUnknown",
    "Success",
    "Transport",
    "TransportError",
    "Unknown",
    "Untrusted",
    "Validator",
    "Violation",
    "WaitDeadline",
    "WaitPolicy",
]

# Where each name lives: imported on first use.
_HOMES = {
    "Ambiguity": ".canonical",
    "ApiError": ".errors",
    "AsyncHttpxTransport": ".transport",
    "AsyncPages": ".client",
    "AsyncRuntimeClient": ".client",
    "AsyncTransport": ".transport",
    "BaasError": ".errors",
    "CallOptions": ".config",
    "CallTimeout": ".errors",
    "CanonicalError": ".canonical",
    "Config": ".config",
    "ConfigError": ".errors",
    "Confirmed": ".settle",
    "DecodeError": ".errors",
    "Document": ".document",
    "EncodeError": ".errors",
    "FieldPath": ".validate",
    "HttpxTransport": ".transport",
    "InvalidRequest": ".errors",
    "JsonNumber": ".canonical",
    "JsonValue": ".canonical",
    "NotConfirmed": ".settle",
    "Outcome": ".errors",
    "OutcomeUnknown": ".errors",
    "Page": ".client",
    "PagedRequest": ".operation",
    "Pages": ".client",
    "PrivateKey": ".secret",
    "REDACTED": ".secret",
    "Record": ".record",
    "Request": ".operation",
    "RequestIdMismatch": ".errors",
    "ResponseTooLarge": ".errors",
    "RuleKind": ".validate",
    "RuntimeClient": ".client",
    "SUCCESS_CODE": ".errors",
    "Settlement": ".settle",
    "Scalar": ".wire",
    "SignatureInvalid": ".errors",
    "SignatureMissing": ".errors",
    "StillUnknown": ".settle",
    "Success": ".client",
    "Transport": ".transport",
    "TransportError": ".errors",
    "Unknown": ".wire",
    "Untrusted": ".errors",
    "Validator": ".validate",
    "Violation": ".validate",
    "WaitDeadline": ".errors",
    "WaitPolicy": ".client",
}

if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """Imports a name of the package the first time it is used (PEP 562)."""
        import importlib

        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
