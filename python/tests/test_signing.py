"""The shared signing and refusal vectors (tests/data/signing-vectors.json), which the
Rust runtime, baas-sign and interop/signing.py pass too, and the parser's limits."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from baas_runtime import canonical
from baas_runtime.canonical import (
    EXPANSION_ALLOWANCE,
    MAX_DEPTH,
    MAX_EXPANSION,
    CanonicalError,
    JsonNumber,
    parse,
    parse_for_signing,
    reads_as_pair,
)
from baas_runtime.secret import PrivateKey
from baas_runtime.sign import (
    VerifyError,
    attach_signature,
    check,
    sign,
    sign_and_attach,
    verify,
)

VECTORS_PATH = Path(__file__).resolve().parents[2] / "tests" / "data" / "signing-vectors.json"
VECTORS: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))


def _name(v: dict[str, Any]) -> str:
    return str(v["name"])


@pytest.mark.parametrize("vector", VECTORS["signing"], ids=_name)
def test_signing_vector(vector: dict[str, Any]) -> None:
    key = PrivateKey(vector["key"])
    body = vector["body"].encode("utf-8")
    flat = parse(body)
    assert flat.canonical_string_exposing_key(key) == vector["canonical"]
    assert sign(body, key) == vector["signature"]
    signed = sign_and_attach(body, key)
    verify(signed, key)
    assert check(signed, key).holds()
    # The attached body is the signed text plus the signature only.
    assert signed.startswith(body.rstrip()[:-1])


def _signing_rejects(body: bytes, key: PrivateKey) -> CanonicalError:
    with pytest.raises(CanonicalError) as refused:
        sign(body, key)
    return refused.value


@pytest.mark.parametrize("vector", VECTORS["refusals"], ids=_name)
def test_refusal_vector(vector: dict[str, Any]) -> None:
    key = PrivateKey(vector["key"])
    body = vector["body"].encode("utf-8")
    # Signed with the vector's key: only the rule refuses it.
    loose = parse(body, unambiguous=False)
    assert loose.signature == loose.signature_hex(key)
    with pytest.raises(VerifyError) as refused:
        verify(body, key)
    cause = refused.value.cause
    assert cause is not None and cause.kind == "ambiguous"
    assert cause.rule is not None
    assert (cause.rule.id, cause.path) == (vector["rule"], vector["path"])
    refusal = _signing_rejects(vector["unsigned"].encode("utf-8"), key)
    assert refusal.rule is not None and refusal.rule.id == vector["rule"]
    if "recut" in vector:
        recut = parse(vector["recut"].encode("utf-8"), unambiguous=False)
        assert recut.canonical_string_exposing_key(key) == loose.canonical_string_exposing_key(key)
        if vector.get("recut_is_clean"):
            parse(vector["recut"].encode("utf-8"))


@pytest.mark.parametrize("vector", VECTORS["received_nulls"], ids=_name)
def test_received_null_vector(vector: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    """A null member of a received body reads as absent and verifies; a body with null
    members is signed as the document says (the nulls skipped), with one warning per
    skipped member on the runtime's logger (issue 34 item 10)."""
    key = PrivateKey(vector["key"])
    body = vector["body"].encode("utf-8")
    flat = verify(body, key)
    assert flat.first_null_path == vector["path"]
    assert list(flat.null_paths) == vector["skipped"]
    unsigned = vector["unsigned"].encode("utf-8")
    with caplog.at_level(logging.WARNING, logger="baas"):
        assert sign(unsigned, key) == flat.signature
    warned = [r.getMessage() for r in caplog.records if r.name == "baas"]
    assert len(warned) == len(vector["skipped"])
    for path, line in zip(vector["skipped"], warned):
        assert f"`{path}` is skipped" in line and vector["key"] not in line
    attached = sign_and_attach(unsigned, key)
    assert verify(attached, key).signature == flat.signature
    assert parse_for_signing(unsigned).null_paths == tuple(vector["skipped"])


def test_a_null_element_is_still_refused_by_signing_and_verifying() -> None:
    key = PrivateKey("k")
    for body, path in ((b'{"a":[1,null]}', "a[1]"), (b'{"a":{"b":[null]},"c":null}', "a.b[0]")):
        refusal = _signing_rejects(body, key)
        assert refusal.rule is not None and (refusal.rule.id, refusal.path) == ("R2", path)
        with pytest.raises(VerifyError) as refused:
            verify(body[:-1] + b',"signature":"00"}', key)
        assert refused.value.cause is not None and refused.value.cause.path == path


def test_the_sdk_never_sends_a_null() -> None:
    from baas_runtime.envelope import sign_request
    from baas_runtime.errors import EncodeError

    with pytest.raises(EncodeError) as refused:
        sign_request({"a": None}, sender="s", locale="en_KE", key=PrivateKey("k"))  # type: ignore[dict-item]
    assert "params.a" in str(refused.value) and "null" in str(refused.value)


def test_the_vectors_are_there() -> None:
    assert len(VECTORS["signing"]) >= 13 and len(VECTORS["refusals"]) >= 13
    assert VECTORS["received_nulls"]


@pytest.mark.parametrize(
    "text, reads",
    [
        ("Tom & Jerry", False),
        ("a&b", False),
        ("a=b&c", False),
        ("&=x", False),
        ("&a..b=", False),
        ("&a[]=", False),
        ("&a[1]b=", False),
        ("x&data.result[1].amount=9", True),
        ("a&b=c", True),
        ("Tom & Jerry = x", True),
        ("&a[0][12].b=", True),
    ],
)
def test_rule_r3(text: str, reads: bool) -> None:
    assert reads_as_pair(text) is reads


def test_numbers_keep_their_text_and_strings_are_unescaped() -> None:
    flat = parse(b'{"a":100.50,"b":"caf\\u00e9","c":[1.0e3,-0]}')
    assert flat.value["a"] == JsonNumber("100.50")
    assert isinstance(flat.value["a"], JsonNumber)
    assert sorted(flat.pairs) == ["a=100.50", "b=café", "c[0]=1.0e3", "c[1]=-0"]


@pytest.mark.parametrize(
    "body, kind",
    [
        (b"[1]", "not_an_object"),
        (b"", "not_an_object"),
        (b'{"a":1}x', "syntax"),
        (b'{"a":01}', "syntax"),
        (b'{"a":NaN}', "syntax"),
        (b'{"a":1,}', "syntax"),
        (b'{"a":"\x01"}', "syntax"),
        (b'{"a":"\\ud800"}', "syntax"),
        (b'{"a":"\\udc00x"}', "syntax"),
        (b'{"a":"\xff"}', "invalid_utf8"),
        (b'{"a":1,"a":2}', "duplicate_key"),
        (b'{"a":{"b":1,"b":{}}}', "duplicate_key"),
        (b'{"signature":1}', "signature_not_string"),
    ],
)
def test_malformed_bodies(body: bytes, kind: str) -> None:
    with pytest.raises(CanonicalError) as refused:
        parse(body, unambiguous=False)
    assert refused.value.kind == kind


def test_depth_limit() -> None:
    ok = b'{"a":' + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"}"
    parse(ok)
    deep = b'{"a":' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}"
    with pytest.raises(CanonicalError) as refused:
        parse(deep)
    assert refused.value.kind == "too_deep"
    # Far deeper than Python's recursion limit: refused at 65, in no time.
    with pytest.raises(CanonicalError):
        parse(b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def test_expansion_limit_is_linear() -> None:
    # A long key above many short values: the pairs would be quadratic in the body.
    key = "k" * 4096
    values = ",".join(["1"] * 20_000)
    body = ('{"' + key + '":[' + values + "]}").encode()
    with pytest.raises(CanonicalError) as refused:
        parse(body)
    assert refused.value.kind == "too_large"
    # Refused where it goes over, not at the end.
    assert refused.value.offset is not None and refused.value.offset < len(body)
    # Dense but legitimate: an array of one-digit numbers under a short key.
    dense = ('{"data":{"list":[' + ",".join(["1"] * 50_000) + "]}}").encode()
    flat = parse(dense)
    total = sum(len(p.encode()) for p in flat.pairs)
    assert total <= len(dense) * MAX_EXPANSION + EXPANSION_ALLOWANCE


def test_attach() -> None:
    assert attach_signature(b"{}", "ab") == b'{"signature":"ab"}'
    assert attach_signature(b'{"a":1} \n', "ab") == b'{"a":1,"signature":"ab"}'
    for bad in (b"[1]", b"}", b""):
        with pytest.raises(CanonicalError):
            attach_signature(bad, "ab")
    key = PrivateKey("k")
    for signed in (b'{"a":1,"signature":"00"}', b'{"signature":null}'):
        with pytest.raises(CanonicalError) as refused:
            sign_and_attach(signed, key)
        assert refused.value.kind == "already_signed"


def test_verify_missing_and_mismatch() -> None:
    key = PrivateKey("k")
    with pytest.raises(VerifyError) as missing:
        verify(b'{"a":1}', key)
    assert missing.value.kind == "missing"
    body = sign_and_attach(b'{"a":1}', key)
    with pytest.raises(VerifyError) as mismatch:
        verify(body, PrivateKey("other"))
    assert mismatch.value.kind == "mismatch"
    tampered = body.replace(b'"a":1', b'"a":2')
    with pytest.raises(VerifyError):
        verify(tampered, key)


def test_redacted_canonical_string_hides_the_key_everywhere() -> None:
    key = PrivateKey("s3cret")
    flat = parse(b'{"note":"my key is s3cret","x":1}')
    text = flat.canonical_string_redacted(key)
    assert "s3cret" not in text
    assert "senderKey=[redacted]" in text and "note=my key is [redacted]" in text


def test_the_key_is_never_shown() -> None:
    key = PrivateKey("s3cret")
    for shown in (repr(key), str(key), f"{key}", f"{key!r}"):
        assert "s3cret" not in shown
    import pickle

    with pytest.raises(TypeError):
        pickle.dumps(key)


def test_module_constants_match_the_rust_runtime() -> None:
    assert (canonical.MAX_DEPTH, canonical.MAX_EXPANSION, canonical.EXPANSION_ALLOWANCE) == (
        64,
        32,
        64 * 1024,
    )
