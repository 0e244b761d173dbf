"""What every generated record, request and response is built on: :class:`Record`.

A generated class is a frozen data class written out: ``__slots__`` (its fields, in
order), annotations, and an explicit keyword-only ``__init__`` that sets each slot. What
is the same for every class (equality, hashing, ``repr``, refusing assignment, pickling
and copying, what ``dataclasses.fields``/``replace``/``asdict`` read) is here, once, so
that importing the package is only creating classes: ``@dataclass`` compiles and
executes source for each class when the module is imported (about 3 ms a class on the
development machine), which made ``records.py`` the largest part of the import.

The behaviour is that of ``@dataclass(frozen=True, kw_only=True, slots=True)``:
``==`` compares the fields of two objects of the same class (``NotImplemented``
otherwise), ``hash`` is that of the tuple of the fields, ``repr`` is
``Name(field=value, ...)``, assigning or deleting a field raises
``dataclasses.FrozenInstanceError`` (any other name: ``AttributeError``, there is none), ``dataclasses.fields``, ``replace``, ``asdict`` and
``is_dataclass`` work (the fields are described the first time they are asked for), and
``pickle``/``copy`` keep the values.
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import dataclasses

__all__ = ["Record"]

_set = object.__setattr__


class _Described:
    """``__dataclass_fields__`` and ``__dataclass_params__`` of a record class, made the
    first time either is read (by ``dataclasses.fields``, ``replace``, ``asdict``,
    ``is_dataclass``, or ``@dataclass`` on a subclass) and then kept on the class.

    Only a class that writes its ``__init__`` (every generated one) is described: the
    bases (:class:`Record`, ``Request``, ``PagedRequest``) are not data classes, so a
    ``@dataclass`` of yours may still derive from them, frozen or not."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type[Any]) -> Any:
        if "__init__" not in cls.__dict__:
            raise AttributeError(self.name)
        import dataclasses

        defaults = getattr(cls.__init__, "__kwdefaults__", None) or {}
        hints: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            hints.update(getattr(klass, "__annotations__", {}))
        fields: dict[str, dataclasses.Field[Any]] = {}
        for name in cls.__slots__:
            default = defaults.get(name, dataclasses.MISSING)
            if default.__class__.__hash__ is None:  # an empty mapping: a new one each time
                f: dataclasses.Field[Any] = dataclasses.field(default_factory=default.__class__, kw_only=True)
            elif name in defaults:
                f = dataclasses.field(default=default, kw_only=True)
            else:
                f = dataclasses.field(kw_only=True)
            f.name = name
            f.type = hints.get(name, Any)
            f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
            fields[name] = f
        # The parameters @dataclass(frozen=True, kw_only=True, slots=True) records (the
        # class of its parameters differs between Python versions: made by @dataclass).
        params = dataclasses.dataclass(frozen=True, kw_only=True)(type("_", (), {})).__dataclass_params__  # type: ignore[attr-defined]
        type.__setattr__(cls, "__dataclass_fields__", fields)
        type.__setattr__(cls, "__dataclass_params__", params)
        return fields if self.name == "__dataclass_fields__" else params


class Record:
    """The base of a generated class: a frozen record of ``__slots__`` (see the module)."""

    __slots__ = ()
    __match_args__ = ()

    if TYPE_CHECKING:
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    else:
        __dataclass_fields__ = _Described("__dataclass_fields__")
        __dataclass_params__ = _Described("__dataclass_params__")

    def _names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = self.__slots__  # the subclass's: its fields in order
        return names

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._names()])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Record):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self._names()
        )
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        if name in self._names():
            import dataclasses

            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        _set(self, name, value)  # a class of yours deriving from a base: as it says

    def __delattr__(self, name: str) -> None:
        if name in self._names():
            import dataclasses

            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def __getstate__(self) -> list[object]:
        return list(self._values())

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(self._names(), state):
            _set(self, name, value)
