"""The client core: validate → sign → send → verify → decode, with retries and outcomes.

:class:`RuntimeClient` (blocking) and :class:`AsyncRuntimeClient` (asyncio) run any
generated :class:`~baas_runtime.operation.Request`; the generated ``Client`` and
``AsyncClient`` wrap them with a method per operation.

Retries: a retryable failure (a transport failure, a timeout, a gateway status 502-504,
or a result code the spec marks retryable) is tried again with a new requestId, salt and
timestamp, up to ``Config.max_retries`` times with doubling backoff, except that a call
that moves money, or one whose requestId the caller fixed, is re-sent only when the
failed attempt provably never left. A call that moves money and fails without a verified
answer after its bytes may have left raises :class:`OutcomeUnknown`, which nothing
retries.

Logging: each call is one record of the ``baas`` logger at DEBUG (operation, outcome,
code, requestId, attempts, duration), each attempt one more; the key is never logged,
the parameters only with ``Config.log_params``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import AsyncIterator, Callable, Collection, Generic, Iterator, Sequence, TypeVar

from .canonical import JsonValue
from .config import CallOptions, Config
from .envelope import SignedRequest, open_response, sign_request
from .errors import (
    ApiError,
    BaasError,
    DecodeError,
    OutcomeUnknown,
    WaitDeadline,
)
from .operation import ItemT, PagedRequest, Request
from .transport import (
    AsyncHttpxTransport,
    AsyncTransport,
    HttpRequest,
    HttpResponse,
    HttpxTransport,
    Transport,
)
from . import settle as _settle
from .settle import Settlement, StillUnknown
from .wire import Unknown, WireShapeError, dumps

__all__ = [
    "Success",
    "Page",
    "WaitPolicy",
    "RuntimeClient",
    "AsyncRuntimeClient",
    "Pages",
    "AsyncPages",
    "MAX_BACKOFF",
]

logger = logging.getLogger("baas")


async def _sleep(seconds: float) -> None:
    """``asyncio.sleep``, asyncio imported by the first wait (not by importing the client)."""
    import asyncio

    await asyncio.sleep(seconds)


#: Longest wait between two attempts, in seconds.
MAX_BACKOFF = 10.0

R = TypeVar("R")
S = TypeVar("S")


@dataclass(frozen=True)
class Success(Generic[R]):
    """A successful call with what its envelope said."""

    #: The decoded ``data``.
    data: R
    #: The requestId that was sent and echoed (verified).
    request_id: str
    #: ``data`` as received (numbers as their literal text; ``{}`` when absent).
    raw_data: JsonValue
    #: Attempts the call made, the answered one included.
    attempts: int
    #: The result code (``00000``).
    code: str = "00000"


@dataclass(frozen=True)
class Page(Generic[R]):
    """One page of a paged operation: its number, items and the total when said."""

    number: int
    items: list[R]
    total: int | None


@dataclass(frozen=True)
class WaitPolicy:
    """How a waiter polls a status query: the first delay, doubled up to ``max_delay``,
    until ``deadline`` (all in seconds)."""

    first_delay: float = 1.0
    max_delay: float = 30.0
    deadline: float = 600.0


class _Failed(Exception):
    """One attempt's failure and the requestId it was sent with."""

    def __init__(self, error: BaasError, request_id: str | None) -> None:
        super().__init__(str(error))
        self.error = error
        self.request_id = request_id


class _Core:
    """What the blocking and the asyncio clients share: everything but waiting and I/O."""

    def __init__(self, config: Config, retryable_codes: Collection[str]) -> None:
        config.check()
        self.config = config
        self.retryable_codes = frozenset(retryable_codes)

    def validate(self, request: Request[R], options: CallOptions) -> None:
        if not isinstance(request, Request):
            raise TypeError(f"{type(request).__name__} is not a request of this API")
        try:
            request.validate()
        except BaasError as e:
            raise e.in_call(request.OPERATION, options.request_id, 0) from None

    def sign(self, request: Request[R], options: CallOptions) -> SignedRequest:
        try:
            params = request._to_wire()
            return sign_request(
                params,
                sender=self.config.sender,
                locale=self.config.locale,
                key=self.config.private_key,
                request_id=options.request_id,
            )
        except BaasError as e:
            raise _Failed(e, None) from None

    def http_request(self, request: Request[R], signed: SignedRequest, options: CallOptions) -> HttpRequest:
        return HttpRequest(
            url=self.config.url(request.PATH),
            body=signed.body,
            timeout=options.timeout if options.timeout is not None else self.config.request_timeout,
            max_response_bytes=self.config.max_response_bytes,
            connect_timeout=self.config.connect_timeout,
        )

    def open(self, request: Request[R], signed: SignedRequest, response: HttpResponse) -> tuple[R, JsonValue]:
        answer = open_response(
            response.status,
            response.body,
            self.config.private_key,
            request_id=signed.request_id,
            accept_unsigned_success=self.config.accept_unsigned_success,
        )
        try:
            return request._decode_response(answer.data), answer.data
        except WireShapeError as e:
            raise DecodeError(f"cannot decode `data`: {e}", status=response.status, body=response.body) from None

    def mark(self, error: BaasError) -> None:
        if isinstance(error, ApiError):
            error.retryable = error.code in self.retryable_codes

    def retry_wait(self, request: Request[R], failed: _Failed, attempt: int, options: CallOptions) -> float | None:
        """Seconds to wait before trying again, or None to give up."""
        error = failed.error
        self.mark(error)
        fixed_id = options.request_id is not None
        may_resend = not (request.MOVES_MONEY or fixed_id) or not error.may_have_reached_service
        if attempt >= self.config.max_retries or not error.is_retryable() or not may_resend:
            return None
        return min(self.config.retry_backoff * float(1 << min(attempt, 16)), MAX_BACKOFF)

    def final(self, request: Request[R], failed: _Failed, attempts: int) -> BaasError:
        """The error of the call, said of it; an unverified failure of a call that moves
        money after its bytes may have left is an :class:`OutcomeUnknown`."""
        error = failed.error
        unknown = (
            request.MOVES_MONEY
            and failed.request_id is not None
            and error.may_have_reached_service
            and not (isinstance(error, ApiError) and error.verified)
        )
        final: BaasError = OutcomeUnknown(error) if unknown else error
        return final.in_call(request.OPERATION, failed.request_id, attempts)

    def log_call(
        self, request: Request[R], started: float, error: BaasError | None, success: tuple[str, int] | None
    ) -> None:
        if not logger.isEnabledFor(logging.DEBUG):
            return
        fields: dict[str, object] = {
            "rpc.method": request.OPERATION,
            "url.path": request.PATH,
            "baas.moves_money": request.MOVES_MONEY,
            "duration_ms": round((time.monotonic() - started) * 1000),
        }
        if error is not None:
            fields["baas.outcome"] = error.outcome.value
            fields["baas.code"] = error.api_code
            fields["baas.request_id"] = error.request_id
            fields["baas.attempts"] = error.attempts
        elif success is not None:
            fields["baas.outcome"] = "success"
            fields["baas.request_id"], fields["baas.attempts"] = success
        if self.config.log_params:
            try:
                fields["baas.params"] = dumps(request._to_wire()).decode("utf-8")
            except ValueError:
                pass
        text = " ".join(f"{k}={v}" for k, v in fields.items() if v is not None)
        logger.debug("baas.call %s", text, extra={"baas": fields})


class RuntimeClient:
    """Sends operations, blocking: validates, signs, posts, verifies and decodes."""

    def __init__(
        self,
        config: Config,
        transport: Transport | None = None,
        *,
        retryable_codes: Collection[str] = (),
    ) -> None:
        self._core = _Core(config, retryable_codes)
        self._transport: Transport = transport if transport is not None else HttpxTransport()

    @property
    def config(self) -> Config:
        return self._core.config

    @property
    def retryable_codes(self) -> frozenset[str]:
        return self._core.retryable_codes

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> RuntimeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def execute(self, request: Request[R], options: CallOptions | None = None) -> R:
        """The typed ``data`` of a successful call (see the module's doc)."""
        return self.execute_with(request, options).data

    def execute_with(self, request: Request[R], options: CallOptions | None = None) -> Success[R]:
        """:meth:`execute`, returning the success with its requestId, raw data and
        attempts. ``options`` gives a requestId of the caller's and a time limit."""
        options = options or CallOptions()
        core = self._core
        started = time.monotonic()
        try:
            core.validate(request, options)
            attempt = 0
            while True:
                try:
                    signed = core.sign(request, options)
                    try:
                        response = self._transport.post_json(core.http_request(request, signed, options))
                        data, raw = core.open(request, signed, response)
                    except BaasError as e:
                        raise _Failed(e, signed.request_id) from None
                    success = Success(data, signed.request_id, raw, attempt + 1)
                    core.log_call(request, started, None, (success.request_id, success.attempts))
                    return success
                except _Failed as failed:
                    wait = core.retry_wait(request, failed, attempt, options)
                    if wait is None:
                        raise core.final(request, failed, attempt + 1) from None
                    time.sleep(wait)
                    attempt += 1
        except BaasError as e:
            core.log_call(request, started, e, None)
            raise

    def pages(self, request: PagedRequest[R, ItemT]) -> Pages[R, ItemT]:
        """Every page of a paged operation, from the request's page on."""
        return Pages(self, request)

    def wait_until(
        self,
        query: Request[R],
        state: Callable[[R], str | None],
        finals: Sequence[str],
        policy: WaitPolicy | None = None,
    ) -> R:
        """Sends ``query`` until ``state`` of its answer is one of ``finals``, waiting as
        ``policy`` says; :class:`WaitDeadline` when the deadline passes first. A
        retryable failure of one query is polled past."""
        policy = policy or WaitPolicy()
        started = time.monotonic()
        delay = policy.first_delay
        last_state: str | None = None
        last_request_id: str | None = None
        queries = 0
        while True:
            queries += 1
            try:
                success = self.execute_with(query)
                now = state(success.data)
                if now is not None and now in finals:
                    return success.data
                last_state, last_request_id = now, success.request_id
            except BaasError as e:
                if not (e.is_retryable() and not query.MOVES_MONEY):
                    raise
            elapsed = time.monotonic() - started
            if elapsed + delay > policy.deadline:
                raise WaitDeadline(last_state, elapsed).in_call(query.OPERATION, last_request_id, queries)
            time.sleep(delay)
            delay = min(delay * 2, policy.max_delay)



    def settle(
        self,
        query: Request[R],
        state: Callable[[R], S | Unknown | None],
        awaiting_otp: Sequence[str],
        finals: Sequence[str],
        otp_rule: str,
    ) -> Settlement[S]:
        """Sends ``query`` (a status query with an application's business id) once and
        reads its state (:mod:`baas_runtime.settle`). Never raises a :class:`BaasError`: a
        failed lookup is :class:`StillUnknown`. The generated pending applications'
        ``settle()`` call it."""
        try:
            success = self.execute_with(query)
        except BaasError as e:
            return StillUnknown(e)
        return _settle.read(
            state(success.data), awaiting_otp, finals, otp_rule, operation=query.OPERATION,
            request_id=success.request_id, attempts=success.attempts, raw=success.raw_data,
        )


class AsyncRuntimeClient:
    """:class:`RuntimeClient` for asyncio."""

    def __init__(
        self,
        config: Config,
        transport: AsyncTransport | None = None,
        *,
        retryable_codes: Collection[str] = (),
    ) -> None:
        self._core = _Core(config, retryable_codes)
        self._transport: AsyncTransport = transport if transport is not None else AsyncHttpxTransport()

    @property
    def config(self) -> Config:
        return self._core.config

    @property
    def retryable_codes(self) -> frozenset[str]:
        return self._core.retryable_codes

    async def aclose(self) -> None:
        await self._transport.aclose()

    async def __aenter__(self) -> AsyncRuntimeClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def execute(self, request: Request[R], options: CallOptions | None = None) -> R:
        return (await self.execute_with(request, options)).data

    async def execute_with(self, request: Request[R], options: CallOptions | None = None) -> Success[R]:
        options = options or CallOptions()
        core = self._core
        started = time.monotonic()
        try:
            core.validate(request, options)
            attempt = 0
            while True:
                try:
                    signed = core.sign(request, options)
                    try:
                        response = await self._transport.post_json(core.http_request(request, signed, options))
                        data, raw = core.open(request, signed, response)
                    except BaasError as e:
                        raise _Failed(e, signed.request_id) from None
                    success = Success(data, signed.request_id, raw, attempt + 1)
                    core.log_call(request, started, None, (success.request_id, success.attempts))
                    return success
                except _Failed as failed:
                    wait = core.retry_wait(request, failed, attempt, options)
                    if wait is None:
                        raise core.final(request, failed, attempt + 1) from None
                    await _sleep(wait)
                    attempt += 1
        except BaasError as e:
            core.log_call(request, started, e, None)
            raise

    def pages(self, request: PagedRequest[R, ItemT]) -> AsyncPages[R, ItemT]:
        return AsyncPages(self, request)

    async def wait_until(
        self,
        query: Request[R],
        state: Callable[[R], str | None],
        finals: Sequence[str],
        policy: WaitPolicy | None = None,
    ) -> R:
        policy = policy or WaitPolicy()
        started = time.monotonic()
        delay = policy.first_delay
        last_state: str | None = None
        last_request_id: str | None = None
        queries = 0
        while True:
            queries += 1
            try:
                success = await self.execute_with(query)
                now = state(success.data)
                if now is not None and now in finals:
                    return success.data
                last_state, last_request_id = now, success.request_id
            except BaasError as e:
                if not (e.is_retryable() and not query.MOVES_MONEY):
                    raise
            elapsed = time.monotonic() - started
            if elapsed + delay > policy.deadline:
                raise WaitDeadline(last_state, elapsed).in_call(query.OPERATION, last_request_id, queries)
            await _sleep(delay)
            delay = min(delay * 2, policy.max_delay)

    async def settle(
        self,
        query: Request[R],
        state: Callable[[R], S | Unknown | None],
        awaiting_otp: Sequence[str],
        finals: Sequence[str],
        otp_rule: str,
    ) -> Settlement[S]:
        """:meth:`RuntimeClient.settle` for asyncio."""
        try:
            success = await self.execute_with(query)
        except BaasError as e:
            return StillUnknown(e)
        return _settle.read(
            state(success.data), awaiting_otp, finals, otp_rule, operation=query.OPERATION,
            request_id=success.request_id, attempts=success.attempts, raw=success.raw_data,
        )


class _PageState(Generic[R, ItemT]):
    """The stop rules of paging: an empty page, one shorter than the page size, the
    total reached."""

    def __init__(self, request: PagedRequest[R, ItemT]) -> None:
        self.next: PagedRequest[R, ItemT] | None = request
        self.seen = 0

    def take(self, request: PagedRequest[R, ItemT], response: R) -> Page[ItemT]:
        number = request._page()
        items, total = request._split(response)
        self.seen += len(items)
        size = request._page_size()
        last = (
            not items
            or (size is not None and len(items) < size)
            or (total is not None and self.seen >= total)
        )
        self.next = None if last else request._with_page(number + 1)
        return Page(number, items, total)


class Pages(Generic[R, ItemT]):
    """The pages of a paged operation (an iterator of :class:`Page`); :meth:`items`
    iterates over every item of every page. An error ends it, raised."""

    def __init__(self, client: RuntimeClient, request: PagedRequest[R, ItemT]) -> None:
        self._client = client
        self._state: _PageState[R, ItemT] = _PageState(request)

    def __iter__(self) -> Pages[R, ItemT]:
        return self

    def __next__(self) -> Page[ItemT]:
        request = self._state.next
        if request is None:
            raise StopIteration
        self._state.next = None
        response = self._client.execute(request)
        return self._state.take(request, response)

    def items(self) -> Items[ItemT]:
        return Items(self)


class Items(Generic[ItemT]):
    """Every item of every page, in order."""

    def __init__(self, pages: Iterator[Page[ItemT]]) -> None:
        self._pages = pages
        self._buffer: list[ItemT] = []

    def __iter__(self) -> Items[ItemT]:
        return self

    def __next__(self) -> ItemT:
        while not self._buffer:
            self._buffer = list(reversed(next(self._pages).items))
        return self._buffer.pop()


class AsyncPages(Generic[R, ItemT]):
    """:class:`Pages` for asyncio (``async for page in ...``)."""

    def __init__(self, client: AsyncRuntimeClient, request: PagedRequest[R, ItemT]) -> None:
        self._client = client
        self._state: _PageState[R, ItemT] = _PageState(request)

    def __aiter__(self) -> AsyncPages[R, ItemT]:
        return self

    async def __anext__(self) -> Page[ItemT]:
        request = self._state.next
        if request is None:
            raise StopAsyncIteration
        self._state.next = None
        response = await self._client.execute(request)
        return self._state.take(request, response)

    def items(self) -> AsyncItems[ItemT]:
        return AsyncItems(self)


class AsyncItems(Generic[ItemT]):
    """Every item of every page, in order (``async for``)."""

    def __init__(self, pages: AsyncIterator[Page[ItemT]]) -> None:
        self._pages = pages
        self._buffer: list[ItemT] = []

    def __aiter__(self) -> AsyncItems[ItemT]:
        return self

    async def __anext__(self) -> ItemT:
        while not self._buffer:
            self._buffer = list(reversed((await self._pages.__anext__()).items))
        return self._buffer.pop()

