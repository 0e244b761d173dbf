"""Client configuration."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from .errors import ConfigError
from .secret import PrivateKey

__all__ = [
    "Config",
    "CallOptions",
    "DEFAULT_LOCALE",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_REQUEST_TIMEOUT",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_RETRY_BACKOFF",
]

DEFAULT_LOCALE = "en_KE"
DEFAULT_CONNECT_TIMEOUT = 10.0
DEFAULT_REQUEST_TIMEOUT = 30.0
DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_RETRIES = 2
DEFAULT_RETRY_BACKOFF = 0.2

_LOCALE = re.compile(r"[A-Za-z]+_[A-Za-z]+")


@dataclass(frozen=True)
class Config:
    """Everything a client needs. Its ``repr`` never shows the private key (a
    :class:`PrivateKey` shows ``[redacted]``). Times are in seconds."""

    #: Base URL, e.g. ``https://api.example.com`` (operation paths are appended).
    base_url: str
    #: The partner's sender name.
    sender: str
    #: The partner's private key.
    private_key: PrivateKey
    #: Locale sent in every envelope, signed as written.
    locale: str = DEFAULT_LOCALE
    #: Time to establish a connection.
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    #: Time for a whole call (sending the request and reading the answer).
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    #: Largest answer body accepted.
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    #: Automatic retries of a retryable failure; a call that moves money is retried only
    #: when its bytes provably never left.
    max_retries: int = DEFAULT_MAX_RETRIES
    #: Wait before the first retry, doubled for each next one (at most 10 s).
    retry_backoff: float = DEFAULT_RETRY_BACKOFF
    #: Accept a success answer that carries no signature (off: such an answer is refused).
    accept_unsigned_success: bool = False
    #: Allow plain ``http://`` to a host other than loopback (off: signing authenticates a
    #: message but does not hide it).
    allow_insecure_http: bool = False
    #: Log each call's parameters at DEBUG (off: they carry account numbers and names).
    log_params: bool = False

    def check(self) -> None:
        """Raises :class:`ConfigError` naming the first unusable setting."""
        url = self.base_url
        rest = None
        for scheme in ("https://", "http://"):
            if url.startswith(scheme):
                rest = url[len(scheme) :]
        if rest is None:
            raise ConfigError("base_url", "must start with https:// or http://")
        if not rest:
            raise ConfigError("base_url", "has no host")
        if any(c.isspace() or not c.isprintable() for c in url):
            raise ConfigError("base_url", "must not contain whitespace")
        if url.startswith("http://") and not self.allow_insecure_http and not _is_loopback(rest):
            raise ConfigError(
                "base_url",
                "plain http:// is allowed only to loopback (a local sandbox); use https:// "
                "(or set allow_insecure_http)",
            )
        if not self.sender.strip():
            raise ConfigError("sender", "must not be empty")
        if not isinstance(self.private_key, PrivateKey) or self.private_key.is_empty():
            raise ConfigError("private_key", "must be a non-empty PrivateKey")
        if not _LOCALE.fullmatch(self.locale) or not self.locale.isascii():
            raise ConfigError("locale", "must have the form <language>_<COUNTRY>, e.g. en_KE")
        for name in ("connect_timeout", "request_timeout"):
            if not getattr(self, name) > 0:
                raise ConfigError(name, "must be greater than zero")
        if self.max_response_bytes <= 0:
            raise ConfigError("max_response_bytes", "must be greater than zero")
        if self.max_retries < 0 or self.retry_backoff < 0:
            raise ConfigError("max_retries", "must not be negative")

    def url(self, path: str) -> str:
        """The URL of an operation path (``/trans/...``)."""
        base = self.base_url.rstrip("/")
        return base + path if path.startswith("/") else f"{base}/{path}"

    def replace(self, **changes: object) -> Config:
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _is_loopback(after_scheme: str) -> bool:
    authority = re.split(r"[/?#]", after_scheme, maxsplit=1)[0]
    if "@" in authority:
        return False
    if authority.startswith("[::1]"):
        port = authority[len("[::1]") :]
        return port == "" or port.startswith(":")
    host = authority.split(":")[0]
    if host.lower() == "localhost":
        return True
    octets = host.split(".")
    return (
        len(octets) == 4
        and octets[0] == "127"
        and all(o.isdigit() and o.isascii() and len(o) <= 3 and int(o) <= 255 for o in octets)
    )


@dataclass(frozen=True)
class CallOptions:
    """Options of one call: the requestId to send (to store it before sending, to
    reconcile or cancel by it; a new one by default) and its time limit in seconds.

    **A requestId of your own turns off retries** of a failed attempt that may have
    reached the service (a timeout, a dropped connection, a retryable code such as
    ``10001``), queries included: the service refuses a requestId it has seen
    (``12002``), so the call is tried again only when the failed attempt provably never
    left. Without one, a query is retried with a new requestId up to
    ``Config.max_retries`` times."""

    request_id: str | None = None
    timeout: float | None = None
