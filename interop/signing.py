"""The API's signature, written from the OpenAPI document's `x-baas-signing` (and the
Authentication section it renders), not from the Rust runtime: an independent
implementation that the schemathesis hook uses to sign generated requests and to check
every response, and that the differential test (tests/differential/) compares with every
signer we ship.

Limits and refusals: `parse_received(body_bytes)` applies those of the SDKs (the Python
SDK's baas_runtime.canonical states them): UTF-8 only, strict JSON (no NaN or Infinity),
no lone surrogate, no duplicate key, a top-level object, nesting at most MAX_DEPTH (64)
levels (checked before the JSON library recurses: no RecursionError), and the pairs at most
MAX_EXPANSION (32) times the bytes read so far plus EXPANSION_ALLOWANCE (64 KiB), counted
at the end of every member and element as the SDKs count them. Left out: MAX_BODY (the
SDKs' 512 MiB cap; this reads what it is given) and the sandbox's 100,000-value cap.
`loads_literal(text)` alone (the schemathesis hook's) applies only the JSON ones.

    flatten: objects `parent.key`, arrays `path[i]`, `path={}`, `path=[]`, nulls skipped,
             strings unescaped, numbers as their literal JSON text, booleans true/false
    add `senderKey=<key>`; sort the whole pair strings by bytes; join with `&`;
    lowercase hex SHA-256 (plain, not HMAC); the top-level `signature` is left out.

The canonical string escapes nothing, so some bodies share it with another body (a value
holding `&path=` reads as more pairs). Such bodies are refused by every signer and
verifier we ship, by the rules `check_unambiguous` applies (the same as the Rust
runtime's `Flattened::parse_unambiguous`, written here again from their statement):

    R1  an object key, at any depth, that is empty or contains `&`, `=`, `.`, `[` or `]`
    R2  a `null` array element (a null member reads as absent, and is skipped when signing,
        as the document says, with a warning on the `baas.interop` logger)
    R3  a string value holding `&`, then a key (one or more characters other than
        `& = . [ ]`), any number of `.key` or `[digits]`, then `=`
    R4  a top-level `senderKey` member

The top-level `signature` is not part of the canonical string: the rules leave it alone.

Run with no arguments, it checks itself against the shared vectors in
`tests/data/signing-vectors.json` (every signing vector signs to its signature and
verifies; every refusal vector is refused by its rule) and exits non-zero on a failure.
"""

import hashlib
import json
import logging
import re
import sys
from pathlib import Path

VECTORS = Path(__file__).resolve().parent.parent / "tests" / "data" / "signing-vectors.json"

_SPECIAL = "&=.[]"
_KEY = r"[^&=.\[\]]+"
# R3: `&`, a key, any number of `.key` or `[digits]`, `=`.
_READS_AS_PAIR = re.compile("&" + _KEY + r"(?:\." + _KEY + r"|\[[0-9]+\])*=")


class Literal(str):
    """A JSON number kept as the text it had in the received bytes."""


class DuplicateKey(ValueError):
    """The same key twice in one object: no canonical string."""


class Ambiguous(ValueError):
    """A body whose canonical string could stand for another body."""

    def __init__(self, rule, path):
        super().__init__(f"refused by rule {rule} at `{path}`")
        self.rule = rule
        self.path = path


def _no_duplicates(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKey(f"duplicate key `{key}`")
        result[key] = value
    return result


def _no_constant(name):
    raise ValueError(f"`{name}` is not JSON")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogate(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if _LONE_SURROGATE.search(key):
                    raise ValueError("a lone surrogate in a key")
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not isinstance(item, Literal) and _LONE_SURROGATE.search(item):
            raise ValueError("a lone surrogate in a string")


def loads_literal(text):
    """Parses received JSON keeping every number's literal text (`100.50` stays);
    refuses duplicate keys (DuplicateKey, a ValueError), NaN and Infinity, lone
    surrogates."""
    value = json.loads(
        text,
        parse_int=Literal,
        parse_float=Literal,
        parse_constant=_no_constant,
        object_pairs_hook=_no_duplicates,
    )
    _no_lone_surrogate(value)
    return value


MAX_DEPTH = 64
MAX_EXPANSION = 32
EXPANSION_ALLOWANCE = 64 * 1024


class TooLarge(ValueError):
    """Nested too deep, or pairs too long for the bytes read."""


_WS = re.compile(rb"[ \t\n\r]*")
_STRING = re.compile(rb'"((?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*)"')
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _string_len(raw):
    """UTF-8 length of a JSON string's text once unescaped."""
    if b"\\" not in raw:
        return len(raw)
    return len(json.loads(b'"' + raw + b'"').encode("utf-8", "surrogatepass"))


def check_limits(body):
    """Raises TooLarge when `body` (bytes) nests deeper than MAX_DEPTH or its pairs pass
    the expansion limit, counted as the SDKs count them: the top-level object is depth 1;
    a pair is `path=value` (nulls none, `{}`/`[]` for empty containers, the top-level
    `signature` none); after every member and element, the pairs so far may be at most
    MAX_EXPANSION times the bytes read plus EXPANSION_ALLOWANCE. Iterative (no
    recursion); stops quietly at the first byte that is not JSON (the parser says why)."""
    pos = _WS.match(body, 0).end()
    if body[pos : pos + 1] != b"{":
        return
    pairs = 0
    # Frames: [is_object, path_len, next_index, is_top]
    stack = []

    def open_container(kind, path_len, top):
        if len(stack) + 1 > MAX_DEPTH:
            raise TooLarge(f"nested deeper than {MAX_DEPTH} levels")
        stack.append([kind == b"{", path_len, 0, top])

    open_container(b"{", 0, True)
    pos += 1
    expect_value = False
    while stack:
        frame = stack[-1]
        pos = _WS.match(body, pos).end()
        byte = body[pos : pos + 1]
        if not expect_value:
            if byte in (b"}", b"]") and frame[2] == 0:
                # An empty container: `path={}` or `path=[]` (not for the top object).
                pos += 1
                stack.pop()
                if not frame[3]:
                    pairs += frame[1] + 3
                if stack:
                    pairs, pos = _after_value(body, pos, pairs, stack)
                continue
            if frame[0]:
                match = _STRING.match(body, pos)
                if match is None:
                    return
                key_len = _string_len(match.group(1))
                pos = _WS.match(body, match.end()).end()
                if body[pos : pos + 1] != b":":
                    return
                pos += 1
                is_signature = frame[3] and match.group(1) == b"signature"
                child_len = key_len if frame[3] else frame[1] + 1 + key_len
            else:
                suffix = len(str(frame[2])) + 2
                is_signature = False
                child_len = frame[1] + suffix
            frame[2] += 1
            expect_value = True
            continue
        expect_value = False
        byte = body[pos : pos + 1]
        if byte in (b"{", b"["):
            open_container(byte, child_len, False)
            pos += 1
            continue
        if byte == b'"':
            match = _STRING.match(body, pos)
            if match is None:
                return
            if not is_signature:
                pairs += child_len + 1 + _string_len(match.group(1))
            pos = match.end()
        elif body.startswith(b"true", pos):
            pairs, pos = pairs + (0 if is_signature else child_len + 5), pos + 4
        elif body.startswith(b"false", pos):
            pairs, pos = pairs + (0 if is_signature else child_len + 6), pos + 5
        elif body.startswith(b"null", pos):
            pos += 4
        else:
            match = _NUMBER.match(body, pos)
            if match is None:
                return
            if not is_signature:
                pairs += child_len + 1 + len(match.group(0))
            pos = match.end()
        pairs, pos = _after_value(body, pos, pairs, stack)
        if pos < 0:
            return


def _after_value(body, pos, pairs, stack):
    """After a member or element ending at `pos`: the budget, then `,` or the container's
    end (closing, and counting, as many containers as end here)."""
    while True:
        if pairs > pos * MAX_EXPANSION + EXPANSION_ALLOWANCE:
            raise TooLarge(f"the pairs are more than {MAX_EXPANSION} times the bytes read at byte {pos}")
        pos = _WS.match(body, pos).end()
        byte = body[pos : pos + 1]
        frame = stack[-1]
        if byte == b",":
            return pairs, pos + 1
        if byte == (b"}" if frame[0] else b"]"):
            stack.pop()
            pos += 1
            if not stack:
                return pairs, pos
            continue
        return pairs, -1


def parse_received(body):
    """The message in `body` (bytes) with every limit and refusal of the SDKs but the
    re-cut rules (see the module's doc): ValueError (DuplicateKey, TooLarge, ...) when it
    has none."""
    text = body.decode("utf-8")  # UnicodeDecodeError is a ValueError
    check_limits(body)
    message = loads_literal(text)
    if not isinstance(message, dict):
        raise ValueError("the message is not a JSON object")
    return message


def _value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Literal):
        return str(value)
    if isinstance(value, (int, float)):
        # What `json.dumps` (and so the HTTP library) writes for this number.
        return json.dumps(value)
    return value


def flatten(value, path, out):
    if value is None:
        return
    if isinstance(value, dict):
        if not value:
            out.append(path + "={}")
        for key, item in value.items():
            flatten(item, f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        if not value:
            out.append(path + "=[]")
        for i, item in enumerate(value):
            flatten(item, f"{path}[{i}]", out)
    else:
        out.append(f"{path}={_value_text(value)}")


def canonical_string(message, key):
    pairs = []
    for name, value in message.items():
        if name != "signature":
            flatten(value, name, pairs)
    pairs.append("senderKey=" + key)
    pairs.sort(key=lambda p: p.encode("utf-8"))
    return "&".join(pairs)


def signature(message, key):
    """The algorithm's signature of any message (rules not applied: use `sign` to sign
    what is to be sent)."""
    return hashlib.sha256(canonical_string(message, key).encode("utf-8")).hexdigest()


def _check(value, path, nulls=True):
    """The first breach of R1-R3 in `value` at `path`, in document order. A null
    member is none (it reads as absent, and a signer skips it) unless `nulls` is false;
    a null array element always is."""
    if value is None:
        if not nulls:
            raise Ambiguous("R2", path)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            item_path = f"{path}.{key}" if path else key
            if not key or any(c in _SPECIAL for c in key):
                raise Ambiguous("R1", item_path)
            _check(item, item_path, nulls)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if item is None:
                raise Ambiguous("R2", f"{path}[{i}]")
            _check(item, f"{path}[{i}]", nulls)
    elif isinstance(value, str) and not isinstance(value, Literal):
        if _READS_AS_PAIR.search(value):
            raise Ambiguous("R3", path)


def check_unambiguous(message, received=True):
    """Raises Ambiguous(rule, path) when the message breaks R1-R4 (see the module's
    doc); the top-level `signature` is left alone. Null members are no breach (read as
    absent when received, skipped when signed); null array elements are (R2). With
    `received=False` a null member is one too: the strict reading of a request our SDKs
    would send (they never send a null), as the schemathesis hook applies it."""
    if not isinstance(message, dict):
        raise ValueError("the message is not a JSON object")
    for key, item in message.items():
        if key == "signature":
            continue
        if not key or any(c in _SPECIAL for c in key):
            raise Ambiguous("R1", key)
        if key == "senderKey":
            raise Ambiguous("R4", key)
        _check(item, key, received)


def null_members(message):
    """The paths of the null members of a message, in document order (the top-level
    `signature` left out): what the canonical string skips."""
    found = []

    def walk(value, path):
        if isinstance(value, dict):
            for key, item in value.items():
                item_path = f"{path}.{key}" if path else key
                if item is None:
                    found.append(item_path)
                else:
                    walk(item, item_path)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")

    walk({k: v for k, v in message.items() if k != "signature"}, "")
    return found


_log = logging.getLogger("baas.interop")


def sign(message, key):
    """The signature of a message that keeps the rules (Ambiguous otherwise). Null members
    are skipped, as the document says, each with a warning on the `baas.interop` logger."""
    check_unambiguous(message)
    for path in null_members(message):
        _log.warning("the null member `%s` is skipped (the API document leaves nulls out of the signed text)", path)
    return signature(message, key)


def verifies(message, key):
    """True when the message keeps the rules and carries its signature."""
    try:
        check_unambiguous(message)
    except Ambiguous:
        return False
    return isinstance(message.get("signature"), str) and message["signature"] == signature(message, key)


def self_test():
    """The document's example, a few shapes, then every vector of VECTORS. Returns the
    failures (empty when all hold)."""
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    # The worked example of the document (public-facts.md).
    example = {
        "requestId": "APPREQ00990320fed02000",
        "sender": "client1",
        "locale": "en_KE",
        "timestamp": 1650533105687,
        "salt": "QcEwsZ123da",
        "params": {"name": "Tester"},
    }
    expected = "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
    expect(sign(example, "yourkey") == expected, "the document's example")
    expect(
        canonical_string({"a": [], "b": {}, "c": None, "d": [1, {"e": True}]}, "k")
        == "a=[]&b={}&d[0]=1&d[1].e=true&senderKey=k",
        "empty containers, nulls skipped",
    )
    expect(canonical_string(loads_literal('{"x": 100.50}'), "k") == "senderKey=k&x=100.50", "literal numbers")
    for fine in ["Tom & Jerry", "a&b", "a=b&c", "&=x", "&a..b=", "&a[]=", "&a[1]b="]:
        expect(_READS_AS_PAIR.search(fine) is None, f"R3 accepts {fine!r}")
    for bad in ["x&data.result[1].amount=9", "a&b=c", "Tom & Jerry = x", "&a[0][12].b="]:
        expect(_READS_AS_PAIR.search(bad) is not None, f"R3 refuses {bad!r}")
    try:
        loads_literal('{"a":1,"a":2}')
        failures.append("a duplicate key is refused")
    except DuplicateKey:
        pass
    # The SDKs' limits (issue 35: depth 3000 raised RecursionError; NaN, Infinity, lone
    # surrogates and an expansion past the limit were signed).
    refused = {
        "depth 3000": b'{"a":' + b"[" * 3000 + b"]" * 3000 + b"}",
        "depth 65": b'{"a":' + b"[" * 64 + b"]" * 64 + b"}",
        "NaN": b'{"a":NaN}',
        "-Infinity": b'{"a":-Infinity}',
        "a lone surrogate": b'{"a":"\\ud800"}',
        "a lone surrogate in a key": b'{"\\udfff":"x"}',
        "invalid UTF-8": b'{"a":"\xff"}',
        "a long key above many values": b'{"' + b"k" * 4000 + b'":[' + b",".join([b"1"] * 600) + b"]}",
        "a duplicate key": b'{"a":1,"\\u0061":2}',
    }
    for name, body in refused.items():
        try:
            parse_received(body)
            failures.append(f"{name} is refused")
        except RecursionError:
            failures.append(f"{name}: RecursionError")
        except ValueError:
            pass
    for name, body in {
        "depth 64": b'{"a":' + b"[" * 63 + b"]" * 63 + b"}",
        "a long key above a few values": b'{"' + b"k" * 4000 + b'":[1,2,3]}',
        "numbers as written": b'{"a":[-0,1e400,0.10,1E+2]}',
    }.items():
        try:
            parse_received(body)
        except ValueError as e:
            failures.append(f"{name} is accepted ({e})")

    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    for v in vectors["signing"]:
        name = v["name"]
        message = loads_literal(v["body"])
        try:
            check_unambiguous(message)
        except Ambiguous as e:
            failures.append(f"signing vector {name!r} refused: {e}")
            continue
        expect(canonical_string(message, v["key"]) == v["canonical"], f"signing vector {name!r}: canonical string")
        expect(sign(message, v["key"]) == v["signature"], f"signing vector {name!r}: signature")
        message["signature"] = v["signature"]
        expect(verifies(message, v["key"]), f"signing vector {name!r}: verifies")
    for v in vectors["refusals"]:
        name = v["name"]
        message = loads_literal(v["body"])
        # Signed with the vector's key: only the rule refuses it.
        expect(message.get("signature") == signature(message, v["key"]), f"refusal vector {name!r} is signed")
        expect(not verifies(message, v["key"]), f"refusal vector {name!r} is refused")
        try:
            check_unambiguous(message)
            failures.append(f"refusal vector {name!r} passes the rules")
        except Ambiguous as e:
            expect((e.rule, e.path) == (v["rule"], v["path"]), f"refusal vector {name!r}: {e}, not {v['rule']} at {v['path']}")
        unsigned = loads_literal(v["unsigned"])
        try:
            sign(unsigned, v["key"])
            failures.append(f"refusal vector {name!r} is signed by `sign`")
        except Ambiguous:
            pass
        if "recut" in v:
            recut = loads_literal(v["recut"])
            expect(
                canonical_string(recut, v["key"]) == canonical_string(message, v["key"]),
                f"refusal vector {name!r}: the re-cut body has the same canonical string",
            )
    for v in vectors["received_nulls"]:
        name = v["name"]
        message = loads_literal(v["body"])
        expect(verifies(message, v["key"]), f"received null vector {name!r} verifies")
        unsigned = loads_literal(v["unsigned"])
        expect(null_members(unsigned) == v["skipped"], f"received null vector {name!r}: the nulls skipped")
        try:
            expect(sign(unsigned, v["key"]) == message["signature"], f"received null vector {name!r} signs to its signature")
        except Ambiguous as e:
            failures.append(f"received null vector {name!r} is refused by `sign`: {e}")
    for body, path in (('{"a":[1,null]}', "a[1]"), ('{"a":{"b":[null]},"c":null}', "a.b[0]")):
        try:
            sign(loads_literal(body), "k")
            failures.append(f"a null element at {path} is signed")
        except Ambiguous as e:
            expect((e.rule, e.path) == ("R2", path), f"a null element: {e}")
    return failures, len(vectors["signing"]), len(vectors["refusals"])


if __name__ == "__main__":
    failures, signing_count, refusal_count = self_test()
    for failure in failures:
        print(f"signing.py: FAILED: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(
        f"signing.py: the document's example verifies; {signing_count} signing vectors sign and "
        f"verify, {refusal_count} refusal vectors are refused by their rule"
    )
