"""Generated classes are frozen records written out (issue 36 item 3): they behave as
``@dataclass(frozen=True, kw_only=True, slots=True)`` did, and importing the client runs
no ``@dataclass``, httpx or asyncio."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import os
import importlib
import pickle
import pkgutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import baas_client
from baas_client import notifications, records, transfers
from baas_runtime.record import Record

HERE = Path(__file__).resolve().parent
#: The group modules (each operation's request and response).
GROUPS = [
    m.name for m in pkgutil.iter_modules(baas_client.__path__)
    if not m.name.startswith("_") and m.name not in ("enums", "records", "notifications")
]


def record_classes() -> list[type[Record]]:
    """Every record class of the generated modules, each once (responses may be aliases)."""
    seen: dict[int, type[Record]] = {}
    groups = [importlib.import_module(f"baas_client.{g}") for g in GROUPS]
    for module in [records, notifications, *groups]:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Record) and value.__module__ == module.__name__:
                seen[id(value)] = value
    return list(seen.values())


def slots(cls: type[Record]) -> tuple[str, ...]:
    names: tuple[str, ...] = cls.__slots__
    return names


def as_dataclass(cls: type[Record]) -> type[Any]:
    """The class `@dataclass(frozen=True, kw_only=True, slots=True)` makes of the same
    fields, defaults and name: what the generated class was before."""
    defaults = getattr(cls.__init__, "__kwdefaults__", None) or {}
    def field(name: str) -> Any:
        if name not in defaults:
            return dataclasses.field()
        if isinstance(defaults[name], dict):  # `params` of a request the spec leaves free
            return dataclasses.field(default_factory=dict)
        return dataclasses.field(default=defaults[name])

    spec = [(name, Any, field(name)) for name in slots(cls)]
    made = dataclasses.make_dataclass(cls.__name__, spec, frozen=True, kw_only=True, slots=True)
    made.__qualname__ = cls.__qualname__
    return made


def sample(cls: type[Record], seed: int) -> dict[str, Any]:
    """Values for every field (of any type: these classes do not check types)."""
    return {name: [f"{name}-{seed}", Decimal(seed)] if i % 2 else f"{name}-{seed}" for i, name in enumerate(slots(cls))}


def test_every_generated_class_is_a_record_and_none_a_dataclass() -> None:
    classes = record_classes()
    assert len(classes) > 100
    for cls in classes:
        # No @dataclass ran: its __init__ would be compiled from text ("<string>"), not
        # written in the module (`__dataclass_params__` is set once `dataclasses` asks).
        assert cls.__init__.__code__.co_filename == sys.modules[cls.__module__].__file__, cls
        assert not hasattr(cls(**sample(cls, 1)), "__dict__"), cls  # slots only


def test_records_behave_as_the_frozen_keyword_only_dataclasses_they_were() -> None:
    for cls in record_classes():
        old = as_dataclass(cls)
        a, b = sample(cls, 1), sample(cls, 2)
        new_a, old_a = cls(**a), old(**a)
        assert repr(new_a) == repr(old_a)
        assert new_a == cls(**a) and not new_a != cls(**a)
        if a != b:
            assert new_a != cls(**b)
        assert new_a != old_a  # another class: NotImplemented both ways, as a dataclass
        assert (new_a == 1) is False
        hashable = {k: (tuple(v) if isinstance(v, list) else v) for k, v in a.items()}
        assert hash(cls(**hashable)) == hash(old(**hashable))
        assert inspect.signature(cls).parameters.keys() == inspect.signature(old).parameters.keys()
        for name, p in inspect.signature(cls).parameters.items():
            assert p.kind is inspect.Parameter.KEYWORD_ONLY, (cls, name)
            was = inspect.signature(old).parameters[name].default
            if repr(was) == "<factory>":  # `params` of a free request: {} when not given
                assert p.default == {}
                others = {k: v for k, v in a.items() if k != name}
                first, second = getattr(cls(**others), name), getattr(cls(**others), name)
                assert first == {} and first is not second and first is not p.default
            else:
                assert p.default == was, (cls, name)
        assert cls.__match_args__ == old.__match_args__ == ()
        with pytest.raises(AttributeError):
            new_a.not_a_field = 1
        for name in slots(cls):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(new_a, name, 1)
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(new_a, name)
        assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(old)]
        described = [(f.default, f.default_factory, f.kw_only) for f in dataclasses.fields(new_a)]
        assert described == [(f.default, f.default_factory, f.kw_only) for f in dataclasses.fields(old)]
        assert dataclasses.is_dataclass(new_a) and dataclasses.asdict(new_a) == dataclasses.asdict(old_a)
        if cls.__slots__:
            first = cls.__slots__[0]
            changed = dataclasses.replace(new_a, **{first: "changed"})
            assert getattr(changed, first) == "changed" and changed == cls(**{**a, first: "changed"})
        assert pickle.loads(pickle.dumps(new_a)) == new_a
        assert copy.copy(new_a) == new_a and copy.deepcopy(new_a) == new_a


def test_a_required_field_is_required_and_nothing_is_positional() -> None:
    item: Any = records.OrderItem  # a sent record with required fields (mypy refuses both calls)
    required = [n for n, p in inspect.signature(item).parameters.items() if p.default is p.empty]
    assert required
    with pytest.raises(TypeError):
        item()
    with pytest.raises(TypeError):
        item(*("x" for _ in item.__slots__))


def test_a_record_holding_itself_shows_the_cycle_as_a_dataclass_did() -> None:
    rows: list[Any] = []
    page = transfers.GetTransListResponse(result=rows)
    rows.append(page)
    old_rows: list[Any] = []
    old = as_dataclass(transfers.GetTransListResponse)(**{**sample(transfers.GetTransListResponse, 0), "result": old_rows})
    old_rows.append(old)
    new = transfers.GetTransListResponse(**{**sample(transfers.GetTransListResponse, 0), "result": rows})
    rows[0] = new
    assert repr(new) == repr(old) and "[...]" in repr(new)


def test_paging_keeps_every_other_field() -> None:
    request = transfers.GetTransListRequest(**{**sample(transfers.GetTransListRequest, 1), "page_no": 1})
    following = request._with_page(3)
    assert following._page() == 3
    assert dataclasses.replace(following, page_no=request.page_no) == request


def imported(statement: str) -> dict[str, Any]:
    """The modules a fresh interpreter holds after `statement`."""
    code = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent), str(HERE.parent.parent / "generated" / "python")])
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    names = json.loads(done.stdout)
    return {"all": set(names), "top": {n.split(".")[0] for n in names}}


def test_importing_the_client_loads_neither_httpx_nor_asyncio_until_a_client_is_made() -> None:
    first = imported(
        "from baas_client import Client\n"
        "from baas_client.cny import ApplyForCnyExpressRequest\n"
        "from baas_client.records import OrderItem"
    )
    assert not {"httpx", "httpcore", "asyncio", "ssl", "anyio"} & first["top"], first["top"]
    made = imported(
        "from baas_client import Client, Config, PrivateKey\n"
        "Client(Config('https://baas.example.com', 'sender', PrivateKey('k'))).close()"
    )
    assert "httpx" in made["top"]
    assert "asyncio" not in made["top"] or "asyncio" in imported("import httpx")["top"]


def test_the_package_alone_imports_no_group() -> None:
    bare = imported("import baas_client")
    assert GROUPS and not {f"baas_client.{g}" for g in GROUPS} & bare["all"]
    assert "baas_client.records" not in bare["all"] and "httpx" not in bare["top"]


def test_the_bases_are_not_data_classes_so_yours_may_derive_from_them() -> None:
    from baas_runtime import PagedRequest, Request

    for base in (Record, Request, PagedRequest):
        assert not dataclasses.is_dataclass(base)

    @dataclasses.dataclass
    class Mutable(Request[None]):  # not frozen: refused if Request were a frozen dataclass
        OPERATION = "mine"
        value: int = 0

    @dataclasses.dataclass(frozen=True)
    class Frozen(Request[None]):
        OPERATION = "mine"
        value: int = 0

    assert [f.name for f in dataclasses.fields(Mutable)] == [f.name for f in dataclasses.fields(Frozen)] == ["value"]
    assert Frozen(value=1) == Frozen(value=1) and Mutable(value=2).value == 2


def test_a_data_class_of_yours_may_extend_a_generated_record() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Tagged(records.OrderItem):
        tag: str = ""

    names = [f.name for f in dataclasses.fields(Tagged)]
    assert names == [*slots(records.OrderItem), "tag"]
