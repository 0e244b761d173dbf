"""The fast reading of a body to sign or verify (``unambiguous``), at the speed of Python's
own ``json`` module; :func:`baas_runtime.canonical.parse` uses it and, whenever it raises
:class:`Uncertain`, reads the body again with the exact reader (``_reader.py``), so that both
give the same tree, canonical string, refusals and limits (tests/test_fast_reading.py holds
them together on the differential corpus).

How:

- ``json`` (C) parses the text with hooks that keep what signing needs: every number as its
  literal text (``parse_int``/``parse_float`` make :class:`JsonNumber`), NaN and Infinity
  refused (``parse_constant``). A repeated key (json keeps the last) is seen by counting:
  every member has one colon outside strings, and the colons inside strings are those of the
  values (a body whose keys hold a colon, or with a ``\u003a`` escape, goes to the exact
  reader), each of which is in the canonical string once; so the body's colons, less the
  canonical string's and the signature's, are the members read unless a key repeats.
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
from bisect import bisect_left
from itertools import chain, islice, repeat
from operator import itemgetter
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

# A `\u` escape of a UTF-16 surrogate, or of a colon (or text that looks like one:
# `\\ud800` is a backslash then `ud800`): such bodies are read by the exact reader.
_ESCAPES_TO_CHECK = re.compile(rb"\\u(?:[dD][89a-fA-F]|003[aA])")
_R1 = re.compile(r"[&=.\[\]]")
_KEY_PAIR_START = SENDER_KEY + "="
_new = object.__new__
_first = itemgetter(0)
_set = object.__setattr__


class Uncertain(Exception):
    """The fast reading does not vouch for this body: the exact reader reads it."""


def _no_constant(name: str) -> NoReturn:
    raise Uncertain


_scan = json.scanner.make_scanner(
    json.JSONDecoder(  # type: ignore[arg-type]
        parse_int=JsonNumber,
        parse_float=JsonNumber,
        parse_constant=_no_constant,
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


_FOLLOWS = {str: "=", JsonNumber: "=", bool: "=", dict: ".", list: "["}


class _Plan:
    """How the pairs of an object with given keys and kinds of values are joined: the values
    taken in the canonical order of the keys (each key followed by ``=``, or ``.`` and ``[``
    for a filled object or array), into ``prefix key=value&...``, where an object's or an
    array's place holds its own run of pairs and a boolean's its text."""

    __slots__ = ("values", "template", "special", "count")

    def __init__(self, keys: tuple[str, ...], kinds: tuple[type, ...]) -> None:
        kind_of = dict(zip(keys, kinds))
        ordered = sorted(keys, key=lambda k: k + _FOLLOWS[kind_of[k]])
        self.count = len(ordered)
        self.values: Callable[[dict[str, Any]], tuple[Any, ...]] = itemgetter(*ordered)
        self.template: list[str | None] = []
        #: (place, key, kind) of each value that is not text or a number, in the body's order.
        self.special: list[tuple[int, str, type]] = []
        for place, key in enumerate(ordered):
            kind = kind_of[key]
            self.template += [None, key + "=", None, "&"]
            if kind is not str and kind is not JsonNumber:
                self.special.append((place, key, kind))
        self.template.pop()
        # Read in the body's order, so that the null members below are found in it.
        self.special.sort(key=lambda s: keys.index(s[1]))


# Plans by key tuple, and array orders by length; both bounded in count and in size, so
# that what hostile bodies leave behind stays small (a few MB at most): plans for objects of
# at most _PLANNED keys, orders of arrays of at most _ORDERED elements, keys of at most
# _KEPT_KEY characters.
_PLANS: dict[tuple[tuple[str, ...], tuple[type, ...]], _Plan | None] = {}
_ORDERS: dict[int, tuple[int, ...]] = {}
_CACHED = 512
_PLANNED = 64
_ORDERED = 4096
_KEPT_KEY = 64


# Keys seen free of `& = . [ ]` (R1) and of `:` (see the count of colons in `read`), bounded.
_CLEAN_KEYS: set[str] = set()


def _clean(key: str) -> None:
    if not key or _R1.search(key) is not None or ":" in key:
        raise Uncertain  # R1: the exact reader names the path
    if len(key) <= _KEPT_KEY:
        if len(_CLEAN_KEYS) >= 4 * _CACHED:
            _CLEAN_KEYS.clear()
        _CLEAN_KEYS.add(key)


def _plan(keys: tuple[str, ...], kinds: tuple[type, ...]) -> _Plan | None:
    """The plan of an object with these keys and kinds of values; None when its keys are
    not all clean (member by member, which names the key) or a value is null."""
    plan = _PLANS.get((keys, kinds), False)
    if plan is False:
        if len(_PLANS) >= _CACHED:
            _PLANS.clear()
        clean = all(k and _R1.search(k) is None and ":" not in k for k in keys)
        plannable = clean and all(kind in _FOLLOWS for kind in kinds)
        plan = _PLANS[(keys, kinds)] = _Plan(keys, kinds) if plannable else None
    return plan  # type: ignore[return-value]


# The canonical order of an object's keys, by key tuple, for objects whose keys are clean
# and none of which begins another (then the order is that of the keys alone, whatever the
# values are); bounded as the plans are.
_KEY_ORDERS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _key_order(made: dict[str, Any]) -> tuple[str, ...]:
    """The order in which an object's members' pairs come in the canonical string: by key and
    what follows it (``=``, or ``.`` and ``[`` for a filled object or array). Raises
    :class:`Uncertain` for a key that is not clean (R1: the exact reader names it)."""
    for key in made:
        if key not in _CLEAN_KEYS:
            _clean(key)
    keys = tuple(made)
    order = tuple(sorted(keys))
    if any(after.startswith(before) for before, after in zip(order, order[1:])):
        # A key begins another: what follows it decides (`a-b=` comes before `a=`).
        return tuple(sorted(keys, key=lambda k: k + _follows(made[k])))
    if len(keys) <= _PLANNED and all(len(k) <= _KEPT_KEY for k in keys):
        if len(_KEY_ORDERS) >= _CACHED:
            _KEY_ORDERS.clear()
        _KEY_ORDERS[keys] = order
    return order


def _follows(value: Any) -> str:
    """What follows a member's key in its pairs."""
    if value and type(value) is dict:
        return "."
    if value and type(value) is list:
        return "["
    return "="


def _nulls(made: dict[str, Any], prefix: str, out: list[str], top: bool = False) -> None:
    """The paths of the null members of a body already read, in document order (a null
    element was refused; a top-level ``signature`` is not a member of the pairs)."""
    for key, value in made.items():
        if value is None:
            if not (top and key == "signature"):
                out.append(prefix + key)
        elif type(value) is dict:
            _nulls(value, prefix + key + ".", out)
        elif type(value) is list:
            _null_elements(value, prefix + key, out)


def _null_elements(items: list[Any], path: str, out: list[str]) -> None:
    for index, value in enumerate(items):
        if type(value) is dict:
            _nulls(value, f"{path}[{index}].", out)
        elif type(value) is list:
            _null_elements(value, f"{path}[{index}]", out)


def _order(length: int) -> tuple[int, ...]:
    """The canonical order of an array's elements: by ``index]`` as text (``p[10]...`` comes
    before ``p[1]...``, as ``0`` comes before ``]``), whatever follows."""
    order = _ORDERS.get(length)
    if order is None:
        order = tuple(sorted(range(length), key=lambda i: f"{i}]"))
        if length <= _ORDERED:
            if len(_ORDERS) >= _CACHED:
                _ORDERS.clear()
            _ORDERS[length] = order
    return order


#: Bodies up to this size are flattened pair by pair, each object's members in the order of
#: its keys (no sort of whole pairs); longer ones run by run, in the order the keys give.
FLAT_UP_TO = 8192


def read(data: bytes, null_members: bool) -> Flattened:
    """The body read to sign or verify, or :class:`Uncertain`."""
    try:
        text = data.decode("utf-8")
        top = _decode(text)
    except (ValueError, RecursionError):
        raise Uncertain from None
    if type(top) is not dict:
        raise Uncertain  # not an object: the exact reader says what it is
    del text  # as long as the body, or up to four times: not kept through the walk
    # (The bytes are searched, not the text: an ASCII character is itself in UTF-8, and
    # bytes are searched faster than text that is not all ASCII; one byte fastest.)
    if data.find(b"\\") != -1 and _ESCAPES_TO_CHECK.search(data) is not None:
        raise Uncertain  # an escaped surrogate, or an escaped colon (see `colons` below)
    if SENDER_KEY in top:
        raise Uncertain  # R4
    signature = top.get("signature")
    has_signature = "signature" in top
    if has_signature and signature is not None and type(signature) is not str:
        raise Uncertain  # not a string: the exact reader refuses it
    # A repeated key: json keeps the last, so the body has more members than the dicts. Every
    # member has one colon outside strings; the colons inside strings are those of the values
    # (keys with a colon are not read here, and no `\u003a` escape is), each of which is in
    # the canonical string once (but `signature`'s, taken off here).
    # (As many colons as members: then none is inside a string and no key repeats, since
    # the members written are at least those read. Else the values' colons are counted.)
    colons = data.count(b":") - (signature.count(":") if signature else 0)
    walk = _Walk(data.find(b"&") != -1, null_members)
    encoded = None
    if len(data) <= FLAT_UP_TO:
        parts = walk.flat(top)
        # The canonical string's bytes around the senderKey pair, made once here (the digest
        # hashes them; the colons are counted in them). No pair begins with `senderKey`
        # then `=`, `.` or `[` (R4), so the key pair's place does not depend on the key.
        # Each pair is encoded, then the bytes joined (text joined first would be as wide as
        # its widest character, and encoding it takes three bytes a character for a while),
        # the pairs before the key in two pieces: the peak stays below the naive signer's.
        at = bisect_left(parts, _KEY_PAIR_START)
        half = at >> 1
        pieces = []
        if half:
            pieces.append(b"&".join(map(str.encode, parts[:half])))
        if at > half:
            pieces.append(b"&".join(map(str.encode, parts[half:at])))
        key_at = len(pieces)
        if at < len(parts):
            pieces.append(b"&".join(map(str.encode, parts[at:])))
        encoded = (tuple(pieces), key_at)
        if colons != walk.members:
            colons -= sum(map(bytes.count, pieces, repeat(b":")))
    else:
        parts = walk.ordered(walk.entries(top, "", 1, top=True))
        if colons != walk.members:  # without copying the whole text
            colons -= sum(map(str.count, parts, repeat(":")))
    if colons != walk.members:
        raise Uncertain
    made = _new(Flattened)
    _set(made, "__dict__", {  # the fields, without the frozen __init__'s setattr for each
        "value": top,
        "parts": parts,
        "signature": signature,
        "has_signature_key": has_signature,
        "has_sender_key_pair": False,
        "null_paths": tuple(walk.nulls),
        "parts_are_pairs": False,
        "encoded": encoded,
    })
    return made


# What the walk gives for an object or an array: its pairs in canonical order, as runs of
# `&`-joined pairs (a list, so that no level copies the text of the levels below it).
Runs = list[str]


class _Walk:
    __slots__ = ("amp", "null_members", "nulls", "excess", "members")

    def __init__(self, amp: bool, null_members: bool) -> None:
        self.amp = amp  # the body holds `&`: text values are checked against R3
        self.null_members = null_members
        self.nulls: list[str] = []
        self.excess = 0
        self.members = 0  # members of every object read (see the count of colons)

    def over(self, excess: int) -> None:
        self.excess += excess
        if self.excess > EXPANSION_ALLOWANCE:
            raise Uncertain

    def obj(self, made: dict[str, Any], prefix: str, depth: int) -> Runs:
        """The object's runs (``prefix`` ends in ``.``)."""
        if depth > MAX_DEPTH:
            raise Uncertain
        count = len(made)
        if len(prefix) > 31:
            self.over(count * max(0, _byte_len(prefix) - 126))
        if 1 < count <= _PLANNED:
            plan = _plan(tuple(made), tuple(map(type, made.values())))
            if plan is not None:
                runs = self.planned(plan, made, prefix, depth)
                if runs is not None:
                    self.members += count
                    return runs
        return self.ordered(self.entries(made, prefix, depth))

    @staticmethod
    def ordered(entries: list[tuple[str, str | Runs]]) -> Runs:
        entries.sort()
        out: Runs = []
        for _, item in entries:
            if type(item) is str:
                out.append(item)
            else:
                out += item
        return out

    def flat(self, top: dict[str, Any]) -> list[str]:
        """Every pair, in canonical order (code point order, the order of UTF-8 bytes): each
        object's members in the order of their keys, each array's elements in the order of
        ``index]``, so the pairs come out sorted. The null members skipped are listed in
        document order."""
        out: list[str] = []
        self.flat_object(top, "", 1, out, top=True)
        if self.nulls:  # found in canonical order: listed again in the body's
            self.nulls = []
            _nulls(top, "", self.nulls, top=True)
        return out

    def flat_object(self, made: dict[str, Any], prefix: str, depth: int, out: list[str], top: bool = False) -> None:
        if depth > MAX_DEPTH:
            raise Uncertain
        self.members += len(made)
        if len(prefix) > 31:
            self.over(len(made) * max(0, _byte_len(prefix) - 126))
        amp = self.amp
        order = _KEY_ORDERS.get(tuple(made))
        if order is None:
            order = _key_order(made)
        append = out.append
        for key in order:
            value = made[key]
            kind = type(value)
            if kind is str:
                if top and key == "signature":
                    continue
                if amp and reads_as_pair(value):
                    raise Uncertain  # R3
                append(f"{prefix}{key}={value}")
            elif kind is JsonNumber:
                append(f"{prefix}{key}={value!s}")
            elif kind is dict:
                if value:
                    self.flat_object(value, prefix + key + ".", depth + 1, out)
                elif depth >= MAX_DEPTH:
                    raise Uncertain
                else:
                    append(prefix + key + "={}")
            elif kind is list:
                if value:
                    self.flat_array(value, prefix + key, depth + 1, out)
                elif depth >= MAX_DEPTH:
                    raise Uncertain
                else:
                    append(prefix + key + "=[]")
            elif value is None:
                if top and key == "signature":
                    continue
                if not self.null_members:
                    raise Uncertain
                self.nulls.append(prefix + key)
            else:
                append(prefix + key + ("=true" if value else "=false"))

    def flat_array(self, items: list[Any], path: str, depth: int, out: list[str]) -> None:
        if depth > MAX_DEPTH:
            raise Uncertain
        over = _byte_len(path) + len(str(len(items) - 1)) - 28
        if over > 0:
            self.over(over * sum(1 for v in items if not v or type(v) not in (dict, list)))
        append = out.append
        for index in _order(len(items)):
            value = items[index]
            kind = type(value)
            if kind is dict:
                if value:
                    self.flat_object(value, f"{path}[{index}].", depth + 1, out)
                elif depth >= MAX_DEPTH:
                    raise Uncertain
                else:
                    append(f"{path}[{index}]={{}}")
            elif kind is str:
                if self.amp and reads_as_pair(value):
                    raise Uncertain  # R3
                append(f"{path}[{index}]={value}")
            elif kind is JsonNumber:
                append(f"{path}[{index}]={value!s}")
            elif kind is list:
                if value:
                    self.flat_array(value, f"{path}[{index}]", depth + 1, out)
                elif depth >= MAX_DEPTH:
                    raise Uncertain
                else:
                    append(f"{path}[{index}]=[]")
            elif value is None:
                raise Uncertain  # R2
            else:
                append(f"{path}[{index}]=" + ("true" if value else "false"))

    def planned(self, plan: _Plan, made: dict[str, Any], prefix: str, depth: int) -> Runs | None:
        """The object's runs by its plan; None when a container the plan took as filled is
        empty (member by member then; nothing is read twice)."""
        values = list(plan.values(made))
        special = plan.special
        for place, _, kind in special:
            if kind is not bool and not values[place]:
                return None  # an empty container is a pair (`key={}`), in another place
        parts = plan.template.copy()
        parts[0::4] = [prefix] * plan.count
        children: list[tuple[int, Runs]] = []
        for place, key, kind in special:
            value = values[place]
            if kind is bool:
                values[place] = "true" if value else "false"
                continue
            if kind is dict:
                children.append((place, self.obj(value, prefix + key + ".", depth + 1)))
            else:
                children.append((place, self.array(value, prefix + key, depth + 1)))
            values[place] = ""
        if self.amp and any(reads_as_pair(v) for v in values if type(v) is str):
            raise Uncertain  # R3 (a child's runs were checked as they were made)
        parts[2::4] = values
        if not children:
            return ["".join(parts)]  # type: ignore[arg-type]
        children.sort(key=_first)  # made in the body's order, joined in the canonical one
        # The members between two containers make one run; each container gives its own.
        out: Runs = []
        start = 0
        for place, runs in children:
            if place > start:
                out.append("".join(parts[4 * start : 4 * place - 1]))  # type: ignore[arg-type]
            out += runs
            start = place + 1
        if start < plan.count:
            out.append("".join(parts[4 * start :]))  # type: ignore[arg-type]
        return out

    def entries(
        self, made: dict[str, Any], prefix: str, depth: int, top: bool = False
    ) -> list[tuple[str, str | Runs]]:
        """(key and what follows it, the member's pair or runs) for each member with pairs."""
        self.members += len(made)
        out: list[tuple[str, str | Runs]] = []
        append = out.append
        for key, value in made.items():
            if key not in _CLEAN_KEYS:
                _clean(key)
            kind = type(value)
            if kind is str:
                if top and key == "signature":
                    continue
                if self.amp and reads_as_pair(value):
                    raise Uncertain  # R3
                append((key + "=", f"{prefix}{key}={value}"))
            elif kind is JsonNumber:
                append((key + "=", prefix + key + "=" + value))
            elif kind is dict:
                if value:
                    runs = self.obj(value, prefix + key + ".", depth + 1)
                    if runs:
                        append((key + ".", runs))
                elif depth >= MAX_DEPTH:
                    raise Uncertain  # an empty object nested too deep
                else:
                    append((key + "=", prefix + key + "={}"))
            elif kind is list:
                if value:
                    append((key + "[", self.array(value, prefix + key, depth + 1)))
                elif depth >= MAX_DEPTH:
                    raise Uncertain
                else:
                    append((key + "=", prefix + key + "=[]"))
            elif value is None:
                if top and key == "signature":
                    continue
                if not self.null_members:
                    raise Uncertain  # R2, for a reader that takes no null member
                self.nulls.append(prefix + key)
            else:
                append((key + "=", prefix + key + ("=true" if value else "=false")))
        return out

    def array(self, items: list[Any], path: str, depth: int) -> Runs:
        """The array's runs."""
        if depth > MAX_DEPTH:
            raise Uncertain
        over = _byte_len(path) + len(str(len(items) - 1)) - 28
        if over > 0:  # counted for the leaves only (elements that are not a filled container)
            self.over(over * sum(1 for v in items if not v or type(v) not in (dict, list)))
        each: list[Runs] = []
        for index, value in enumerate(items):
            kind = type(value)
            if kind is dict:
                if value:
                    each.append(self.obj(value, f"{path}[{index}].", depth + 1))
                    continue
                if depth >= MAX_DEPTH:
                    raise Uncertain
                run = f"{path}[{index}]={{}}"
            elif kind is str:
                if self.amp and reads_as_pair(value):
                    raise Uncertain  # R3
                run = f"{path}[{index}]={value}"
            elif kind is JsonNumber:
                run = f"{path}[{index}]=" + value
            elif kind is list:
                if value:
                    each.append(self.array(value, f"{path}[{index}]", depth + 1))
                    continue
                if depth >= MAX_DEPTH:
                    raise Uncertain
                run = f"{path}[{index}]=[]"
            elif value is None:
                raise Uncertain  # R2: the exact reader names the path
            else:
                run = f"{path}[{index}]=" + ("true" if value else "false")
            each.append([run])
        if len(each) == 1:
            return each[0]
        return list(chain.from_iterable(itemgetter(*_order(len(each)))(each)))
