"""The fast reading of a body (Python's json with hooks, canonical._Fast) against the exact
one-pass reader (_reader.Reader) on the differential corpus (tests/differential/run.py's
generator: escapes, surrogates, number forms, duplicate keys, depth and expansion near their
limits, nulls, R1-R4): whenever the fast reading vouches for a body, both give the same tree
(types included), pairs, signature and nulls; whatever it does not vouch for is read by the
exact reader, so parse() refuses what the exact reader refuses, with the same kind, offset,
path and rule. And hostile bodies cost linear work (counted, not timed)."""

from __future__ import annotations

import hashlib
import importlib.util
import random
import sys
import tracemalloc
from typing import Any, Callable

import pytest

from baas_runtime import _fast
from baas_runtime._reader import Reader
from baas_runtime.canonical import CanonicalError, parse
from baas_runtime.secret import PrivateKey
from conftest import REPO


def _differential() -> Any:
    spec = importlib.util.spec_from_file_location("differential_run", REPO / "tests" / "differential" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["differential_run"] = module
    spec.loader.exec_module(module)
    return module


DIFF = _differential()


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _exact(body: bytes, unambiguous: bool, null_members: bool) -> Any:
    reader = Reader(body, unambiguous, null_members)
    value = reader.top()
    return value, sorted(reader.pairs), reader.signature, reader.has_signature_key, reader.has_sender_key_pair, reader.nulls


def _corpus(seed: int, count: int) -> list[bytes]:
    gen = DIFF.Gen(random.Random(seed))
    bodies = []
    for _ in range(count):
        text, _ = DIFF.body(gen)
        signed, _ = DIFF.with_signature(text, gen)
        bodies += [text, signed]
    return bodies


KEY = PrivateKey("differential-key-7f3a")


@pytest.mark.parametrize("null_members", [True, False])
@pytest.mark.parametrize("flat_up_to", [1 << 30, 0], ids=["pair by pair", "run by run"])
def test_the_fast_reading_agrees_with_the_exact_reader(
    null_members: bool, flat_up_to: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both ways of building the canonical string, on every body.
    monkeypatch.setattr(_fast, "FLAT_UP_TO", flat_up_to)
    unambiguous = True
    vouched = accepted = 0
    for body in _corpus(20261128, 1500):
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            with pytest.raises(CanonicalError) as refused:
                parse(body, unambiguous=unambiguous, null_members=null_members)
            assert refused.value.kind == "invalid_utf8"
            continue
        try:
            exact = _exact(body, unambiguous, null_members)
        except CanonicalError as e:
            exact_error: Exception | None = e
        else:
            exact_error = None
            accepted += 1
        try:
            fast = _fast.read(body, null_members)
        except _fast.Uncertain:
            pass
        else:
            vouched += 1
            assert exact_error is None, (body, exact_error)
            got = (fast.value, list(fast.pairs), fast.signature, fast.has_signature_key,
                   fast.has_sender_key_pair, list(fast.null_paths))
            for mine, theirs in zip(got, exact):
                assert _same(mine, theirs), (body, mine, theirs)
            # The canonical string built run by run is the sorted pairs joined.
            canonical = "&".join(sorted([*exact[1], "senderKey=" + KEY.expose()]))
            assert fast.canonical_string_exposing_key(KEY) == canonical
            assert fast.digest(KEY) == hashlib.sha256(canonical.encode("utf-8")).digest()
        # parse() itself: the exact reader's refusal, kind, offset, path and rule included.
        try:
            flat = parse(body, unambiguous=unambiguous, null_members=null_members)
        except CanonicalError as e:
            assert isinstance(exact_error, CanonicalError), (body, e)
            assert (e.kind, e.offset, e.path, e.rule, str(e)) == (
                exact_error.kind, exact_error.offset, exact_error.path, exact_error.rule, str(exact_error))
        else:
            assert exact_error is None, (body, exact_error)
            assert _same(flat.value, exact[0]) and list(flat.pairs) == exact[1]
    # The fast reading takes most accepted bodies (not only the easy ones): all but those
    # with an escaped surrogate or near a limit.
    assert accepted > 1000 and vouched >= 0.8 * accepted, (vouched, accepted)


def test_near_the_expansion_limit_the_fast_reading_defers_or_agrees() -> None:
    # Long keys above many values, either side of the limit, and long paths into arrays.
    for klen in (100, 1000, 4000):
        for count in (10, 200, 600, 2000):
            for body in (
                ('{"' + "k" * klen + '":[' + ",".join(["7"] * count) + "]}").encode(),
                ('{"a":{"' + "k" * klen + '":{' + ",".join(f'"v{i}":1' for i in range(count)) + "}}}").encode(),
            ):
                try:
                    want: Any = _exact(body, True, True)[1]
                except CanonicalError as e:
                    want = e.kind
                try:
                    got: Any = list(parse(body).pairs)
                except CanonicalError as e:
                    got = e.kind
                assert got == want, (klen, count)


def _calls(work: Callable[[], object]) -> int:
    """Python-level and C-level calls made by ``work``: a count of work, not a time."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def _peak(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _refused_or_read(body: bytes) -> Callable[[], object]:
    def work() -> object:
        _fast._ORDERS.clear()  # both sizes make their arrays' order (a smaller one may be kept)
        try:
            return parse(body)
        except CanonicalError as e:
            return e

    return work


HOSTILE: dict[str, Callable[[int], bytes]] = {
    # Many keys in one object, many tiny values deep down, nesting to the limit above many
    # members, escapes everywhere, a repeated key at the very end, an escaped lone surrogate
    # at the end (read again by the exact reader), depth far past the limit, a long key
    # above many values (refused by the expansion limit).
    "many keys": lambda n: ("{" + ",".join(f'"k{i}":{i}' for i in range(n)) + "}").encode(),
    "deep then wide": lambda n: ('{"a":' + '{"b":' * 60 + "[" + ",".join(["1"] * n) + "]" + "}" * 61).encode(),
    "escapes": lambda n: ('{"a":"' + "\\n\\u00e9\\\"" * n + '"}').encode(),
    "repeat at the end": lambda n: ("{" + ",".join(f'"k{i}":"v"' for i in range(n)) + ',"k0":1}').encode(),
    "surrogate at the end": lambda n: ("{" + ",".join(f'"k{i}":[1,2]' for i in range(n)) + ',"z":"\\ud800"}').encode(),
    "too deep": lambda n: ('{"a":' + "[" * n + "]" * n + "}").encode(),
    "long key above many values": lambda n: ('{"' + "k" * n + '":[' + ",".join(["1"] * n) + "]}").encode(),
    "many small arrays": lambda n: ('{"a":[' + ",".join(["[[]]"] * n) + "]}").encode(),
}


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_hostile_bodies_cost_linear_work(shape: str) -> None:
    """Four times the body costs at most about four times the calls and the memory: no
    quadratic path, in the fast reading or in the exact reader it defers to."""
    small, large = HOSTILE[shape](2_000), HOSTILE[shape](8_000)
    assert 3.5 < len(large) / len(small) < 4.5
    calls = _calls(_refused_or_read(small)), _calls(_refused_or_read(large))
    assert calls[1] <= 4.6 * calls[0] + 200, calls
    peaks = _peak(_refused_or_read(small)), _peak(_refused_or_read(large))
    assert peaks[1] <= 4.6 * peaks[0] + 65_536, peaks


def _bench_bodies() -> Any:
    spec = importlib.util.spec_from_file_location("bench_bodies", REPO / "bench" / "signing" / "bodies.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("flat_up_to", [1 << 30, 0], ids=["pair by pair", "run by run"])
def test_the_benchmark_bodies_read_as_the_exact_reader_reads_them(flat_up_to: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A request with nested rows and a page of 150 rows (the benchmark's shapes), with a
    null member, booleans, an empty array and a text holding `&` added to some rows."""
    monkeypatch.setattr(_fast, "FLAT_UP_TO", flat_up_to)
    bodies = _bench_bodies()
    page = bodies.page(150, 4200)
    for i, row in enumerate(page["data"]["result"]):
        if i % 7 == 0:
            row["note"] = None
        if i % 5 == 0:
            row["flags"] = {"fresh": i % 2 == 0, "tags": [], "why": "Tom & Jerry"}
    for message in (bodies.small(), page):
        body, signature, _ = bodies._signed(message)
        key = PrivateKey(bodies.KEY)
        fast = _fast.read(body, True)
        exact = _exact(body, True, True)
        assert _same(fast.value, exact[0]) and fast.pairs == exact[1]
        assert list(fast.null_paths) == exact[5]
        canonical_text = "&".join(sorted([*exact[1], "senderKey=" + bodies.KEY]))
        assert fast.canonical_string_exposing_key(key) == canonical_text
        assert fast.signature_hex(key) == hashlib.sha256(canonical_text.encode()).hexdigest()
        if message is not page:  # the plain algorithm of bodies.py holds without nulls
            assert fast.signature_hex(key) == signature == fast.signature


# Keys one of which begins another, with each character that may follow a key in a pair
# (`=`, `.`, `[`) and characters on both sides of them (`-` `0` `~` `a`): the order of a
# short body's members is that of their keys only when none begins another.
_PREFIXED_KEYS = ["a", "a-", "a-b", "a0", "a~", "ab", "b", "-", "~", "a-b-", "ba", "b0"]


def _prefixed_value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice([1, "x", "y:z", True, False, None, 2.5])
    if roll < 0.45:
        return rng.choice([{}, []])
    if roll < 0.75:
        keys = rng.sample(_PREFIXED_KEYS, rng.randint(1, 6))
        return {k: _prefixed_value(rng, depth + 1) for k in keys}
    # Arrays past ten elements (`[10]` comes before `[1]`), no null element (R2).
    return [v for v in (_prefixed_value(rng, depth + 1) for _ in range(rng.choice([1, 3, 11, 12, 23]))) if v is not None]


@pytest.mark.parametrize("flat_up_to", [1 << 30, 0], ids=["pair by pair", "run by run"])
def test_keys_that_begin_others_and_nulls_keep_the_exact_order(flat_up_to: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each object's members in the order of their keys and what follows them, arrays in the
    order of `index]`, and the null members skipped listed in document order: the pairs, the
    digest and the null paths of the exact reader, on 600 generated bodies."""
    import json

    monkeypatch.setattr(_fast, "FLAT_UP_TO", flat_up_to)
    rng = random.Random(36)
    prefixed = nulls = 0
    for _ in range(600):
        keys = rng.sample(_PREFIXED_KEYS, rng.randint(2, 8))
        body = json.dumps({k: _prefixed_value(rng, 1) for k in keys}, separators=(",", ":")).encode()
        try:
            fast = _fast.read(body, True)
        except _fast.Uncertain:
            continue
        exact = _exact(body, True, True)
        assert _same(fast.value, exact[0]) and fast.pairs == exact[1], body
        assert list(fast.null_paths) == exact[5], body
        canonical = "&".join(sorted([*exact[1], "senderKey=" + KEY.expose()]))
        assert fast.digest(KEY) == hashlib.sha256(canonical.encode()).digest(), body
        prefixed += any(a != b and b.startswith(a) for a in keys for b in keys)
        nulls += len(exact[5]) > 1
    assert prefixed > 300 and nulls > 50, (prefixed, nulls)


def test_what_bodies_leave_behind_stays_bounded() -> None:
    """The plans, orders and clean keys kept between messages: bounded in number and size,
    whatever the bodies (many distinct wide objects, long arrays, long keys)."""
    for i in range(40):
        wide = "{" + ",".join(f'"k{i}_{j}":"v"' for j in range(200)) + "}"
        long_key = '"' + "q" * (1000 + i) + '"'
        body = f'{{"w":{wide},"a":[{",".join(["1"] * (5000 + i))}],{long_key}:1,"pad":"{"x" * 9000}"}}'
        parse(body.encode())
        # Short bodies keep their objects' key orders: wide ones and long keys are not kept.
        parse(f'{{"w":{wide},{long_key}:1}}'.encode())
        parse(f'{{"k{i}":{{{long_key}:1,"b":2}},"n{i}":{{"a":1,"b":2}}}}'.encode())
    assert len(_fast._PLANS) <= _fast._CACHED
    assert all(len(keys) <= _fast._PLANNED for keys, _ in _fast._PLANS)
    assert len(_fast._KEY_ORDERS) <= _fast._CACHED
    assert all(len(keys) <= _fast._PLANNED and max(map(len, keys)) <= _fast._KEPT_KEY for keys in _fast._KEY_ORDERS)
    assert all(length <= _fast._ORDERED for length in _fast._ORDERS)
    assert all(len(key) <= _fast._KEPT_KEY for key in _fast._CLEAN_KEYS)
    assert len(_fast._CLEAN_KEYS) <= 4 * _fast._CACHED
