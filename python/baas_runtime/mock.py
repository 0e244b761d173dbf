"""A mock of the service for partners' unit tests, on httpx's ``MockTransport``.

It verifies each request's signature, answers from stubs per operation, signs its
answers with the partner's key and records the requests, so the client under test
validates, signs, verifies and decodes exactly as in production, without a network::

    mock = MockService(key)
    mock.on(GetAccountDetailsRequest, lambda params: {"accountId": params["accountId"]})
    client = Client(config, transport=mock.transport())
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Any, Callable, Union

import httpx

from .canonical import JsonValue
from .envelope import ReceivedRequest, signed_response_body, verify_request
from .errors import BaasError
from .operation import Request
from .secret import PrivateKey
from .transport import AsyncHttpxTransport, HttpxTransport
from .wire import WireObject, dumps

__all__ = ["MockService", "Refusal", "Failure", "Recorded", "Answer"]


@dataclass(frozen=True)
class Refusal:
    """A refusal to answer with: a result code other than success and its message;
    ``signed=False`` answers it unsigned, as a stranger on the path could."""

    code: str
    msg: str
    signed: bool = True


class Failure(enum.Enum):
    """A failure of the exchange itself."""

    #: The connection never opened: nothing was sent.
    NOT_SENT = "not_sent"
    #: The request left and no answer came back: the outcome is unknown.
    NO_ANSWER = "no_answer"
    #: An HTTP 502 page instead of an answer.
    GATEWAY_ERROR = "gateway_error"


#: What a stub returns: the answer's ``data`` (a JSON object), a refusal or a failure.
Answer = Union[WireObject, Refusal, Failure, None]


@dataclass(frozen=True)
class Recorded:
    """One request the mock received (its signature verified)."""

    path: str
    request_id: str
    #: ``params`` as sent (numbers as their literal text).
    params: dict[str, JsonValue]


class MockService:
    """Answers like the service, from stubs (see the module's doc)."""

    def __init__(self, key: PrivateKey, *, sender: str = "mock-service") -> None:
        self._key = key
        self._sender = sender
        self._stubs: dict[str, Callable[[dict[str, JsonValue]], Answer]] = {}
        self._lock = threading.Lock()
        self.requests: list[Recorded] = []

    def __repr__(self) -> str:
        return f"MockService(stubs={sorted(self._stubs)!r})"

    def on(self, operation: type[Request[Any]], answer: Callable[[dict[str, JsonValue]], Answer]) -> None:
        """Answers ``operation`` with what ``answer`` returns for the request's params:
        its ``data`` (signed, code ``00000``; ``None`` for none), a :class:`Refusal` or a
        :class:`Failure`. Replaces an earlier stub."""
        with self._lock:
            self._stubs[operation.PATH] = answer

    def requests_of(self, operation: type[Request[Any]]) -> list[Recorded]:
        """The recorded requests of one operation, in order."""
        with self._lock:
            return [r for r in self.requests if r.path == operation.PATH]

    def handle(self, request: httpx.Request) -> httpx.Response:
        """The httpx handler (use :meth:`transport`, or ``httpx.MockTransport(mock.handle)``)."""
        path = request.url.path
        try:
            received: ReceivedRequest = verify_request(request.read(), self._key)
        except BaasError:
            # As the service: an unsigned refusal echoing nothing of the request.
            return httpx.Response(200, content=b'{"code":"12005","msg":"Invalid signature"}')
        with self._lock:
            self.requests.append(Recorded(path, received.request_id, received.params))
            stub = self._stubs.get(path)
        if stub is None:
            return httpx.Response(500, content=b"no stub for " + path.encode("utf-8"))
        answer = stub(received.params)
        if answer is Failure.NOT_SENT:
            raise httpx.ConnectError("mock: the connection never opened", request=request)
        if answer is Failure.NO_ANSWER:
            raise httpx.ReadTimeout("mock: no answer", request=request)
        if answer is Failure.GATEWAY_ERROR:
            return httpx.Response(502, content=b"<html>502 Bad Gateway</html>")
        if isinstance(answer, Refusal):
            if not answer.signed:
                return httpx.Response(200, content=dumps({"code": answer.code, "msg": answer.msg}))
            body = signed_response_body(
                request_id=received.request_id,
                sender=self._sender,
                locale=received.locale,
                code=answer.code,
                msg=answer.msg,
                data=None,
                key=self._key,
            )
            return httpx.Response(200, content=body)
        body = signed_response_body(
            request_id=received.request_id,
            sender=self._sender,
            locale=received.locale,
            code="00000",
            msg="success",
            data=answer,
            key=self._key,
        )
        return httpx.Response(200, content=body)

    def transport(self) -> HttpxTransport:
        """A blocking transport that reaches this mock."""
        return HttpxTransport(httpx.Client(transport=httpx.MockTransport(self.handle)))

    def async_transport(self) -> AsyncHttpxTransport:
        """An asyncio transport that reaches this mock."""
        return AsyncHttpxTransport(httpx.AsyncClient(transport=httpx.MockTransport(self.handle)))
