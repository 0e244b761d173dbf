"""Fixtures: the sandbox binary on loopback (``cargo build -p baas-sandbox --bin
baas-sandbox``; found in ``$BAAS_SANDBOX`` or ``$CARGO_TARGET_DIR``/``target`` of the
repository). Without it the tests that need it are skipped, unless
``BAAS_REQUIRE_SANDBOX=1`` (CI), which makes its absence a failure."""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
SANDBOX_SENDER = "sandbox-partner"
SANDBOX_KEY = "sandbox-test-key-not-a-secret"


def sandbox_binary() -> Path | None:
    candidates = []
    if os.environ.get("BAAS_SANDBOX"):
        candidates.append(Path(os.environ["BAAS_SANDBOX"]))
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    candidates.append(target / "debug" / "baas-sandbox")
    return next((c for c in candidates if c.is_file()), None)


def sandbox_otp(business_id: str) -> str:
    """The sandbox's OTP of an application (its README's rule)."""
    digest = hashlib.sha256(b"baas-sandbox-otp:" + business_id.encode("utf-8")).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 1_000_000:06d}"


@pytest.fixture(scope="session")
def sandbox_url() -> Iterator[str]:
    binary = sandbox_binary()
    if binary is None:
        if os.environ.get("BAAS_REQUIRE_SANDBOX") == "1":
            pytest.fail("the sandbox binary is not built (cargo build -p baas-sandbox --bin baas-sandbox)")
        pytest.skip("the sandbox binary is not built")
    process = subprocess.Popen(
        [str(binary), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        url = ""
        deadline = time.monotonic() + 30
        assert process.stdout is not None
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if line.startswith("baas-sandbox listening on "):
                url = line.split("listening on ", 1)[1].strip()
                break
            if not line and process.poll() is not None:
                break
        if not url:
            pytest.fail("the sandbox did not start")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
