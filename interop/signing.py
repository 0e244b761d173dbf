"""The API's signature, written from the OpenAPI document's `x-baas-signing` (and the
Authentication section it renders), not from the Rust runtime: an independent
implementation that the schemathesis hook uses to sign generated requests and to check
every response.

    flatten: objects `parent.key`, arrays `path[i]`, `path={}`, `path=[]`, nulls skipped,
             strings unescaped, numbers as their literal JSON text, booleans true/false
    add `senderKey=<key>`; sort the whole pair strings by bytes; join with `&`;
    lowercase hex SHA-256 (plain, not HMAC); the top-level `signature` is left out.
"""

import hashlib
import json


class Literal(str):
    """A JSON number kept as the text it had in the received bytes."""


def loads_literal(text):
    """Parses received JSON keeping every number's literal text (`100.50` stays)."""
    return json.loads(text, parse_int=Literal, parse_float=Literal, parse_constant=Literal)


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
    return hashlib.sha256(canonical_string(message, key).encode("utf-8")).hexdigest()


def verifies(message, key):
    return isinstance(message.get("signature"), str) and message["signature"] == signature(message, key)


if __name__ == "__main__":
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
    assert signature(example, "yourkey") == expected, signature(example, "yourkey")
    assert canonical_string({"a": [], "b": {}, "c": None, "d": [1, {"e": True}]}, "k") == "a=[]&b={}&d[0]=1&d[1].e=true&senderKey=k"
    assert canonical_string(loads_literal('{"x": 100.50}'), "k") == "senderKey=k&x=100.50"
    print("signing.py: the document's example verifies")
