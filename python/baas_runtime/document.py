"""Documents: the bytes of a file the API carries as Base64 text (spec type ``document``,
decision ``document-type``).

A request's document field takes ``bytes`` (or a ``bytearray``/``memoryview``); the SDK
writes standard Base64 with padding (RFC 4648 section 4), so no partner encodes. Read a
file with :meth:`Document.from_path`. A :class:`Document` is ``bytes`` whose ``repr`` and
``str`` show its size only (documents are large and may hold personal data), and generated
models leave document fields out of their ``repr``.
"""

from __future__ import annotations

import base64
import binascii
import os
from typing import TypeVar

T = TypeVar("T")

__all__ = ["Document", "document_in", "document_text", "document_of_text"]


class Document(bytes):
    """The bytes of a document (``bytes`` itself: pass it wherever ``bytes`` goes), never
    shown by ``repr`` or ``str``."""

    __slots__ = ()

    @classmethod
    def from_path(cls, path: str | os.PathLike[str]) -> Document:
        """The file at ``path``, read whole (an :class:`OSError` naming it when it cannot
        be read)."""
        with open(path, "rb") as f:
            return cls(f.read())

    def __repr__(self) -> str:
        return f"Document({len(self)} bytes)"

    def __str__(self) -> str:
        return self.__repr__()


def document_in(value: T) -> T:
    """What a generated request stores for a document field: the bytes given as a
    :class:`Document` (so its ``repr`` shows the size only; a ``Document`` is kept as it
    is), each item of a list of them too. Anything else is stored as given, for the
    validator to refuse with the field's name."""
    if isinstance(value, (bytes, bytearray, memoryview)) and type(value) is not Document:
        return Document(value)  # type: ignore[return-value]  # a bytes, as the field says
    if isinstance(value, list):
        return [document_in(item) for item in value]  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(document_in(item) for item in value)  # type: ignore[return-value]
    return value


def document_text(value: bytes | bytearray | memoryview) -> str:
    """A document as sent: standard Base64 with padding."""
    return base64.b64encode(value).decode("ascii")


def document_of_text(text: str) -> Document:
    """A document received as Base64 text, read leniently: white space skipped, the URL-safe
    symbols ``-``/``_`` accepted, padding optional. Text that is still not Base64 is kept as
    it came (its UTF-8 bytes): an answer never fails over a document."""
    symbols = "".join(text.split()).replace("-", "+").replace("_", "/")
    body = symbols.rstrip("=")
    padded = len(symbols) - len(body)
    if padded <= 2 and len(body) % 4 != 1 and (padded == 0 or len(symbols) % 4 == 0):
        try:
            return Document(base64.b64decode(body + "=" * (-len(body) % 4), validate=True))
        except binascii.Error:
            pass
    return Document(text.encode("utf-8"))
