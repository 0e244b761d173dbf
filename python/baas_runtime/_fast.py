"""The fast reading of a body to sign or verify (``unambiguous``), at the speed of Python's
own ``json`` module; :func:`baas_runtime.canonical.parse` uses it and, whenever it raises
:class:`Uncertain`, reads the body again with the exact reader (``_reader.py``), so that both
give the same tree, canonical string, refusals and limits (tests/test_fast_reading.py holds
them together on the differential corpus).

How:

- ``json`` (C) parses the text with hooks that keep what signing needs: every number as its
  literal text (``parse_int``/``parse_float`` make :class:`JsonNumber`), every object as its
  list of members, repeats included (``object_pairs_hook=tuple``; made a dict here, a repeat
  seen by its count), NaN and Infinity refused (``parse_constant``).
- What ``json`` does not check is checked here, or sent to the exact reader: the re-cut rules
  (keys as each object is read, values holding ``&`` only when the body holds one, a
  top-level ``senderKey``), null members skipped and null elements refused, the depth, lone
  surrogates (a body with an escaped surrogate is read by the exact reader), and the
  expansion limit through a bound that implies it (below).
- The canonical string is built without sorting every pair: with keys free of
  ``& = . [ ]`` (R1), the pairs of one object or array are contiguous in the sorted order
  and ordered by their key (or index) and what follows it (``=``, ``.`` or ``[``), whatever
  their values. So each object's pairs are joined in an order that depends only on its keys
  (kept per key tuple, so the rows of a page share one), each array's by its length (the
  order of ``index]`` as text), and a
  parent joins its children's runs in its own order. Sorting uses Python's sort (code point
  order, which is the order of UTF-8 bytes).

The expansion bound: the exact reader checks, after every member and element, pairs <= 32 *
pos + 64 KiB. A leaf's raw bytes r (key with quotes and colon, value) lie before pos and hold
at least its key and value text plus 3 bytes (a member) or 1 byte (an element), so its pair
(path prefix, key, ``=``, value) is at most 32 * r + (prefix - 126) bytes for a member and
32 * r + (prefix + digits of the index - 28) for an element. The positive parts summed over
the leaves bound how far the pairs pass 32 * pos at any point; while that sum is within
64 KiB the exact reader's check holds everywhere. It is counted for each object and array
before its pairs are made, so the text built stays within 32 times the body plus 64 KiB.
"""

from __future__ import annotations

import json
import json.scanner
import re
from operator import add, itemgetter
from typing import Any, Callable, NoReturn

from .canonical import (
    EXPANSION_ALLOWANCE,
    MAX_DEPTH,
    SENDER_KEY,
    Flattened,
    JsonNumber,
    reads_as_pair,
)

__all__ = ["Uncertain", "read"]

# A `\u` escape of a UTF-16 surrogate (or text that looks like one: `\\ud800` is a
# backslash then `ud800`): such bodies are read by the exact reader.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_R1 = re.compile(r"[&=.\[\]]")


class Uncertain(Exception):
    """The fast reading does not vouch for this body: the exact reader reads it."""


def _no_constant(name: str) -> NoReturn:
    raise Uncertain


_scan = json.scanner.make_scanner(
    json.JSONDecoder(  # type: ignore[arg-type]
        parse_int=JsonNumber,
        parse_float=JsonNumber,
        parse_constant=_no_constant,
        object_pairs_hook=tuple,
    )
)
_JSON_WS = " \t\n\r"


def _decode(text: str) -> Any:
    """The JSON value of the whole text (json's scanner, without the decoder's wrapper)."""
    start = 0 if text[:1] == "{" else len(text) - len(text.lstrip(_JSON_WS))
    try:
        value, end = _scan(text, start)
    except StopIteration:
        raise Uncertain from None
    if end != len(text) and text[end:].strip(_JSON_WS):
        raise Uncertain  # more after the value
    return value


def _byte_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class _Plan:
    """How the pairs of an object whose values are all text or numbers are joined: its
    values taken in the canonical order of its keys, each after ``key=``."""

    __slots__ = ("values", "heads", "mixed")

    def __init__(self, keys: tuple[str, ...]) -> None:
        ordered = sorted(keys, key=lambda k: k + "=")
        self.values: Callable[[dict[str, Any]], tuple[Any, ...]] = itemgetter(*ordered)
        self.heads = tuple(k + "=" for k in ordered)
        #: An object with these keys held a value other than text or a number: the next
        #: ones are read member by member straight away.
        self.mixed = False


# Plans by key tuple, and array orders by length; both bounded.
_PLANS: dict[tuple[str, ...], _Plan | None] = {}
_ORDERS: dict[int, tuple[int, ...]] = {}
_CACHED = 512


# Keys seen free of `& = . [ ]` (R1), bounded.
_CLEAN_KEYS: set[str] = set()


def _clean(key: str) -> None:
    if not key or _R1.search(key) is not None:
        raise Uncertain  # R1: the exact reader names the path
    if len(_CLEAN_KEYS) >= 4 * _CACHED:
        _CLEAN_KEYS.clear()
    _CLEAN_KEYS.add(key)


def _plan(keys: tuple[str, ...]) -> _Plan | None:
    plan = _PLANS.get(keys, False)
    if plan is False:
        if len(_PLANS) >= _CACHED:
            _PLANS.clear()
        clean = all(k and _R1.search(k) is None for k in keys)
        plan = _PLANS[keys] = _Plan(keys) if clean else None
    return plan  # type: ignore[return-value]


def _order(length: int) -> tuple[int, ...]:
    """The canonical order of an array's elements: by ``index]`` as text (``p[10]...`` comes
    before ``p[1]...``, as ``0`` comes before ``]``), whatever follows."""
    order = _ORDERS.get(length)
    if order is None:
        if len(_ORDERS) >= _CACHED:
            _ORDERS.clear()
        order = _ORDERS[length] = tuple(sorted(range(length), key=lambda i: f"{i}]"))
    return order


def read(text: str, null_members: bool) -> Flattened:
    """The body in ``text`` read to sign or verify, or :class:`Uncertain`."""
    try:
        members = _decode(text)
    except (ValueError, RecursionError):
        raise Uncertain from None
    if type(members) is not tuple:
        raise Uncertain  # not an object: the exact reader says what it is
    if "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None:
        raise Uncertain
    top = dict(members)
    if len(top) != len(members):
        raise Uncertain  # a repeated key
    if SENDER_KEY in top:
        raise Uncertain  # R4
    signature = None
    has_signature = "signature" in top
    if has_signature:
        signature = top["signature"]
        if signature is not None and type(signature) is not str:
            raise Uncertain  # not a string: the exact reader refuses it
        members = tuple([m for m in members if m[0] != "signature"])
    walk = _Walk("&" in text, null_members)
    entries = walk.entries(members, "", 1, top)
    entries.sort()
    return Flattened(
        value=top,
        parts=[part for _, part in entries],
        signature=signature,
        has_signature_key=has_signature,
        has_sender_key_pair=False,
        null_paths=tuple(walk.nulls),
    )


class _Walk:
    __slots__ = ("amp", "null_members", "nulls", "excess")

    def __init__(self, amp: bool, null_members: bool) -> None:
        self.amp = amp  # the body holds `&`: text values are checked against R3
        self.null_members = null_members
        self.nulls: list[str] = []
        self.excess = 0

    def over(self, excess: int) -> None:
        self.excess += excess
        if self.excess > EXPANSION_ALLOWANCE:
            raise Uncertain

    def obj(self, members: tuple[tuple[str, Any], ...], prefix: str, depth: int) -> tuple[dict[str, Any], str]:
        """The object's dict and its pairs joined in canonical order (prefix ends in `.`)."""
        made = dict(members)
        if len(made) != len(members):
            raise Uncertain  # a repeated key
        if depth > MAX_DEPTH:
            raise Uncertain
        if len(prefix) > 31:
            self.over(len(members) * max(0, _byte_len(prefix) - 126))
        if len(members) > 1:
            plan = _plan(tuple(made))
            if plan is not None and not plan.mixed:
                values = plan.values(made)
                try:
                    run = ("&" + prefix).join(map(add, plan.heads, values))
                except TypeError:
                    plan.mixed = True  # not all text and numbers: member by member below
                else:
                    if self.amp and any(reads_as_pair(v) for v in values):
                        raise Uncertain  # R3
                    return made, prefix + run
        entries = self.entries(members, prefix, depth, made)
        entries.sort()
        return made, "&".join([part for _, part in entries])

    def entries(
        self, members: tuple[tuple[str, Any], ...], prefix: str, depth: int, made: dict[str, Any]
    ) -> list[tuple[str, str]]:
        """(key and what follows it, the member's pairs) for each member with pairs."""
        out: list[tuple[str, str]] = []
        append = out.append
        for key, value in members:
            if key not in _CLEAN_KEYS:
                _clean(key)
            kind = type(value)
            if kind is str:
                if self.amp and reads_as_pair(value):
                    raise Uncertain  # R3
                append((key + "=", f"{prefix}{key}={value}"))
            elif kind is JsonNumber:
                append((key + "=", prefix + key + "=" + value))
            elif kind is tuple:
                if value:
                    made[key], run = self.obj(value, prefix + key + ".", depth + 1)
                    if run:
                        append((key + ".", run))
                elif depth >= MAX_DEPTH:
                    raise Uncertain  # an empty object nested too deep
                else:
                    made[key] = {}
                    append((key + "=", prefix + key + "={}"))
            elif kind is list:
                if value:
                    run = self.array(value, prefix + key, depth + 1)
                    if run:
                        append((key + "[", run))
                elif depth >= MAX_DEPTH:
                    raise Uncertain
                else:
                    append((key + "=", prefix + key + "=[]"))
            elif value is None:
                if not self.null_members:
                    raise Uncertain  # R2, for a reader that takes no null member
                self.nulls.append(prefix + key)
            else:
                append((key + "=", prefix + key + ("=true" if value else "=false")))
        return out

    def array(self, items: list[Any], path: str, depth: int) -> str:
        """The array's pairs joined in canonical order (its elements made dicts in place)."""
        if depth > MAX_DEPTH:
            raise Uncertain
        over = _byte_len(path) + len(str(len(items) - 1)) - 28
        if over > 0:  # counted for the leaves only (elements that are not a filled container)
            self.over(over * sum(1 for v in items if not v or type(v) not in (tuple, list)))
        runs: list[str] = []
        for index, value in enumerate(items):
            kind = type(value)
            if kind is tuple:
                if value:
                    items[index], run = self.obj(value, f"{path}[{index}].", depth + 1)
                    runs.append(run)
                    continue
                if depth >= MAX_DEPTH:
                    raise Uncertain
                items[index] = {}
                run = f"{path}[{index}]={{}}"
            elif kind is str:
                if self.amp and reads_as_pair(value):
                    raise Uncertain  # R3
                run = f"{path}[{index}]={value}"
            elif kind is JsonNumber:
                run = f"{path}[{index}]=" + value
            elif kind is list:
                if value:
                    runs.append(self.array(value, f"{path}[{index}]", depth + 1))
                    continue
                if depth >= MAX_DEPTH:
                    raise Uncertain
                run = f"{path}[{index}]=[]"
            elif value is None:
                raise Uncertain  # R2: the exact reader names the path
            else:
                run = f"{path}[{index}]=" + ("true" if value else "false")
            runs.append(run)
        if len(runs) == 1:
            return runs[0]
        return "&".join(filter(None, itemgetter(*_order(len(runs)))(runs)))
