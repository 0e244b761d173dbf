"""What generated code implements: an operation's request (:class:`Request`), and the
paged ones (:class:`PagedRequest`)."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from .canonical import JsonValue
from .record import Record
from .validate import FieldPath, Validator
from .wire import WireObject

__all__ = ["Request", "PagedRequest", "ResponseT", "ItemT"]

ResponseT = TypeVar("ResponseT")
ItemT = TypeVar("ItemT")


class Request(Record, Generic[ResponseT]):
    """The parameters of one operation, with its name, wire path, whether it may move
    money, its rules, and how its answer's ``data`` is read. Generated, as a frozen
    :class:`~baas_runtime.record.Record`."""

    __slots__ = ()

    #: Spec operation name, e.g. ``applyForTransfer``.
    OPERATION: ClassVar[str]
    #: Wire path, e.g. ``/trans/v2/applyForTransfer``.
    PATH: ClassVar[str]
    #: True when the call may move money: never re-sent once its bytes may have left.
    MOVES_MONEY: ClassVar[bool]

    def _validate_at(self, v: Validator, at: FieldPath) -> None:
        """Records every violated rule of the parameters (generated)."""

    def _to_wire(self) -> WireObject:
        """The ``params`` object to send (generated)."""
        raise NotImplementedError

    def _decode_response(self, data: JsonValue) -> ResponseT:
        """The answer's ``data`` as the typed response (generated)."""
        raise NotImplementedError

    def validate(self) -> None:
        """Raises :class:`~baas_runtime.errors.InvalidRequest` naming every field and rule
        the request breaks (the client calls it before anything is signed or sent)."""
        v = Validator()
        self._validate_at(v, FieldPath.ROOT)
        v.finish()


class PagedRequest(Request[ResponseT], Generic[ResponseT, ItemT]):
    """A request of an operation whose results come in pages (generated)."""

    __slots__ = ()

    #: The number of the first page.
    FIRST_PAGE: ClassVar[int]

    def _page(self) -> int:
        raise NotImplementedError

    def _with_page(self, page: int) -> PagedRequest[ResponseT, ItemT]:
        raise NotImplementedError

    def _page_size(self) -> int | None:
        raise NotImplementedError

    def _split(self, response: ResponseT) -> tuple[list[ItemT], int | None]:
        """The items of a page and the total over all pages, when the answer says it."""
        raise NotImplementedError
