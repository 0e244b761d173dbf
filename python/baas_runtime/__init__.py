"""``baas-runtime``: the hand-written behaviour under the generated Python SDK
(``baas_client``): signing over the exact bytes sent, verification over the exact bytes
received, the envelope, transports (httpx, blocking and asyncio), errors with their
outcome, retries, paging, waiting, notifications and a mock of the service.

Partners import ``baas_client``, which re-exports what they need from here.
"""

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
from .secret import REDACTED, PrivateKey
from .settle import Confirmed, NotConfirmed, Settlement, StillUnknown
from .transport import AsyncHttpxTransport, AsyncTransport, HttpxTransport, Transport
from .validate import FieldPath, RuleKind, Validator, Violation
from .wire import Scalar, Unknown

__version__ = "0.3.1"

__all__ = [
    "Confirmed",
    "NotConfirmed",
    "Settlement",
    "StillUnknown",
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
    "DecodeError",
    "EncodeError",
    "FieldPath",
    "HttpxTransport",
    "InvalidRequest",
    "JsonNumber",
    "JsonValue",
    "Scalar",
    "Outcome",
    "OutcomeUnknown",
    "Page",
    "PagedRequest",
    "Pages",
    "PrivateKey",
    "REDACTED",
    "Request",
    "RequestIdMismatch",
    "ResponseTooLarge",
    "RuleKind",
    "RuntimeClient",
    "SUCCESS_CODE",
    "SignatureInvalid",
    "SignatureMissing",
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
