"""`python -m baas_client sign`: the same output and exit codes as `baas-sign` (the Rust
tool, compared when it is built), and the key never printed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from baas_runtime.cli import main
from conftest import REPO

EXAMPLE = (
    b'{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE",'
    b'"timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}'
)
SIGNATURE = "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
VECTORS = json.loads((REPO / "tests" / "data" / "signing-vectors.json").read_text(encoding="utf-8"))


def python_sign(args: list[str], body: bytes, key: str | None = "yourkey") -> subprocess.CompletedProcess[bytes]:
    """The command, run in this process (the entry point itself is run once below)."""
    env = {"BAAS_PRIVATE_KEY": key} if key is not None else {}
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdin=io.BytesIO(body), stdout=out, stderr=err, environ=env)
    return subprocess.CompletedProcess(args, code, out.getvalue().encode(), err.getvalue().encode())


def test_the_entry_point() -> None:
    env = {k: v for k, v in os.environ.items() if k != "BAAS_PRIVATE_KEY"}
    env["BAAS_PRIVATE_KEY"] = "yourkey"
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "python"), str(REPO / "generated" / "python")])
    command = [sys.executable, "-m", "baas_client", "sign"]
    done = subprocess.run(command, input=EXAMPLE, capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.decode().splitlines()[-1] == SIGNATURE
    usage = subprocess.run(command[:-1], input=b"", capture_output=True, env=env, timeout=60)
    assert usage.returncode == 2 and b"usage" in usage.stderr


def rust_sign() -> Path | None:
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    binary = (target if target.is_absolute() else REPO / target) / "debug" / "baas-sign"
    return binary if binary.is_file() else None


def test_sign_prints_the_canonical_string_then_the_signature() -> None:
    done = python_sign([], EXAMPLE)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[-1] == SIGNATURE
    assert "senderKey=[redacted]" in lines[0] and "yourkey" not in done.stdout.decode()


def test_attach_then_verify() -> None:
    attached = python_sign(["--attach"], EXAMPLE)
    assert attached.returncode == 0, attached.stderr
    assert json.loads(attached.stdout)["signature"] == SIGNATURE
    verified = python_sign(["--verify"], attached.stdout)
    assert verified.returncode == 0 and verified.stdout.decode().strip() == f"signature OK: {SIGNATURE}"
    wrong = python_sign(["--verify"], attached.stdout, key="otherkey")
    assert wrong.returncode == 1 and b"MISMATCH" in wrong.stderr and b"otherkey" not in wrong.stderr
    assert python_sign(["--verify"], EXAMPLE).returncode == 1  # missing
    assert python_sign(["--attach"], attached.stdout).returncode == 2  # already signed


@pytest.mark.parametrize(
    "args, body, key, code",
    [
        ([], b"not json", "k", 2),
        ([], b'{"a":1,"a":2}', "k", 2),
        ([], EXAMPLE, None, 2),
        ([], EXAMPLE, "", 2),  # an empty key is no key, as baas-sign says
        (["--verify", "--attach"], EXAMPLE, "k", 2),
        (["--bogus"], EXAMPLE, "k", 2),
        (["--attach"], b'{"note":"yourkey"}', "yourkey", 2),
        (["--attach"], b'{"note":"\\u0079ourkey"}', "yourkey", 2),
    ],
)
def test_exit_codes(args: list[str], body: bytes, key: str | None, code: int) -> None:
    done = python_sign(args, body, key)
    assert done.returncode == code, done.stderr
    if key:
        assert key.encode() not in done.stderr + done.stdout


def test_refusal_vectors_are_refused_by_every_mode() -> None:
    for v in VECTORS["refusals"]:
        body = v["body"].encode()
        verify = python_sign(["--verify"], body, v["key"])
        assert verify.returncode == 1, v["name"]
        assert f"rule {v['rule']}".encode() in verify.stderr
        assert python_sign([], v["unsigned"].encode(), v["key"]).returncode == 2, v["name"]
        assert v["key"].encode() not in verify.stderr


def test_null_members_are_signed_skipped_with_one_warning_each() -> None:
    """Issue 34 item 10: the document skips nulls, so the command signs a body with null
    members (exit 0, the signature of the body without them) and warns once per member."""
    for v in VECTORS["received_nulls"]:
        signature = json.loads(v["body"])["signature"]
        assert python_sign(["--verify"], v["body"].encode(), v["key"]).returncode == 0, v["name"]
        signed = python_sign([], v["unsigned"].encode(), v["key"])
        assert signed.returncode == 0, (v["name"], signed.stderr)
        assert signed.stdout.decode().splitlines()[-1] == signature
        warnings = signed.stderr.decode().splitlines()
        assert warnings == [
            f"python -m baas_client sign: warning: the null member `{path}` is skipped (the API "
            "document leaves nulls out of the signed text)"
            for path in v["skipped"]
        ]
        attached = python_sign(["--attach"], v["unsigned"].encode(), v["key"])
        assert attached.returncode == 0, (v["name"], attached.stderr)
        assert json.loads(attached.stdout)["signature"] == signature
        assert len(attached.stderr.decode().splitlines()) == len(v["skipped"])
        assert python_sign(["--verify"], attached.stdout, v["key"]).returncode == 0
    # A null array element is still refused (R2), in every mode.
    for args in ([], ["--attach"]):
        refused = python_sign(args, b'{"a":[1,null]}', "k")
        assert refused.returncode == 2 and b"rule R2 at `a[1]`" in refused.stderr


@pytest.mark.skipif(rust_sign() is None, reason="baas-sign is not built")
def test_same_output_and_exit_codes_as_baas_sign() -> None:
    binary = rust_sign()
    assert binary is not None
    cases: list[tuple[list[str], bytes, str]] = [([], EXAMPLE, "yourkey"), (["--attach"], EXAMPLE, "yourkey")]
    for v in VECTORS["signing"]:
        cases.append(([], v["body"].encode(), v["key"]))
    for v in VECTORS["refusals"] + VECTORS["received_nulls"]:
        cases.append((["--verify"], v["body"].encode(), v["key"]))
        cases.append(([], v["unsigned"].encode(), v["key"]))
        cases.append((["--attach"], v["unsigned"].encode(), v["key"]))
    cases += [([], b"[1]", "k"), (["--verify"], b'{"a":1}', "k"), ([], b'{"a":1,"a":2}', "k")]
    for args, body, key in cases:
        ours = python_sign(args, body, key)
        env = {**os.environ, "BAAS_PRIVATE_KEY": key}
        theirs = subprocess.run([str(binary), *args], input=body, capture_output=True, env=env, timeout=60)
        assert ours.returncode == theirs.returncode, (args, body, ours.stderr, theirs.stderr)
        assert ours.stdout == theirs.stdout, (args, body)
