"""HTTP transports: a :class:`Transport` (sync) or :class:`AsyncTransport` posts the
signed bytes and reads a size-limited answer within the call's time limit.

The default ones run on httpx and ignore ``HTTP_PROXY``/``HTTPS_PROXY`` (a variable set
for other programs would route signed bodies through a proxy you never chose): pass
``env_proxy=True`` to honour them, or your own ``httpx.Client`` for proxies, extra roots
or a test transport.

httpx (and asyncio) are imported when the first default transport is made, not when this
module is: ``from baas_client import Client`` does not load them (issue 36 item 3).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .errors import BaasError, CallTimeout, ResponseTooLarge, TransportError

if TYPE_CHECKING:
    import httpx

__all__ = [
    "HttpRequest",
    "HttpResponse",
    "Transport",
    "AsyncTransport",
    "HttpxTransport",
    "AsyncHttpxTransport",
]


@dataclass(frozen=True)
class HttpRequest:
    """One POST of a signed body."""

    url: str
    body: bytes
    #: The call's time limit, in seconds (connecting, sending and reading the answer).
    timeout: float
    #: Largest answer body accepted.
    max_response_bytes: int
    #: Time to establish a connection, in seconds.
    connect_timeout: float


@dataclass(frozen=True)
class HttpResponse:
    """An answer: its HTTP status (looked at only to describe a failure) and body."""

    status: int
    body: bytes


class Transport(Protocol):
    """Posts a signed body and returns the answer, or raises a :class:`BaasError`
    (:class:`TransportError`, :class:`CallTimeout`, :class:`ResponseTooLarge`) saying
    whether the bytes may have reached the service."""

    def post_json(self, request: HttpRequest) -> HttpResponse: ...

    def close(self) -> None: ...


class AsyncTransport(Protocol):
    """:class:`Transport`, for asyncio."""

    async def post_json(self, request: HttpRequest) -> HttpResponse: ...

    async def aclose(self) -> None: ...


_HEADERS = {
    "content-type": "application/json",
    "accept": "application/json",
    # No compression: the size limit applies to the bytes read, and no bomb inflates.
    "accept-encoding": "identity",
}


def _timeout(request: HttpRequest) -> httpx.Timeout:
    import httpx

    return httpx.Timeout(request.timeout, connect=min(request.connect_timeout, request.timeout))


def _error(e: httpx.HTTPError, request: HttpRequest) -> BaasError:
    """An httpx failure as the SDK's error: a connection that never opened proves
    nothing was sent; anything later may have reached the service."""
    import httpx

    if isinstance(e, httpx.ConnectTimeout):
        return CallTimeout(request.timeout, may_have_reached_service=False)
    if isinstance(e, httpx.PoolTimeout):
        return CallTimeout(request.timeout, may_have_reached_service=False)
    if isinstance(e, httpx.TimeoutException):
        return CallTimeout(request.timeout)
    if isinstance(e, (httpx.ConnectError, httpx.UnsupportedProtocol)):
        return TransportError(type(e).__name__ + ": " + str(e), may_have_reached_service=False)
    return TransportError(type(e).__name__ + ": " + str(e), may_have_reached_service=True)


class HttpxTransport:
    """The default transport, on an ``httpx.Client`` (its own, or one you built)."""

    def __init__(self, client: httpx.Client | None = None, *, env_proxy: bool = False) -> None:
        import httpx

        self._own = client is None
        self._client = client if client is not None else httpx.Client(trust_env=env_proxy)

    def post_json(self, request: HttpRequest) -> HttpResponse:
        import httpx  # imported by __init__: a look-up in sys.modules

        deadline = time.monotonic() + request.timeout
        try:
            with self._client.stream(
                "POST", request.url, content=request.body, headers=_HEADERS, timeout=_timeout(request)
            ) as response:
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > request.max_response_bytes:
                        raise ResponseTooLarge(request.max_response_bytes)
                    chunks.append(chunk)
                    if time.monotonic() > deadline:
                        raise CallTimeout(request.timeout)
                return HttpResponse(response.status_code, b"".join(chunks))
        except httpx.HTTPError as e:
            raise _error(e, request) from None

    def close(self) -> None:
        if self._own:
            self._client.close()


class AsyncHttpxTransport:
    """The default asyncio transport, on an ``httpx.AsyncClient``."""

    def __init__(self, client: httpx.AsyncClient | None = None, *, env_proxy: bool = False) -> None:
        import httpx

        self._own = client is None
        self._client = client if client is not None else httpx.AsyncClient(trust_env=env_proxy)

    async def _post(self, request: HttpRequest) -> HttpResponse:
        async with self._client.stream(
            "POST", request.url, content=request.body, headers=_HEADERS, timeout=_timeout(request)
        ) as response:
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > request.max_response_bytes:
                    raise ResponseTooLarge(request.max_response_bytes)
                chunks.append(chunk)
            return HttpResponse(response.status_code, b"".join(chunks))

    async def post_json(self, request: HttpRequest) -> HttpResponse:
        import asyncio

        import httpx  # imported by __init__: a look-up in sys.modules

        try:
            return await asyncio.wait_for(self._post(request), request.timeout)
        except asyncio.TimeoutError:
            raise CallTimeout(request.timeout) from None
        except httpx.HTTPError as e:
            raise _error(e, request) from None

    async def aclose(self) -> None:
        if self._own:
            await self._client.aclose()
