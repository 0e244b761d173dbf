"""Fixtures: the sandbox binary on loopback (``cargo build -p baas-sandbox --bin
baas-sandbox``; found in ``$BAAS_SANDBOX`` or ``$CARGO_TARGET_DIR``/``target`` of the
repository). Without it the tests that need it are skipped, unless
``BAAS_REQUIRE_SANDBOX=1`` (CI), which makes its absence a failure."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from baas_client import SandboxProcess

REPO = Path(__file__).resolve().parents[2]


def sandbox_binary() -> Path | None:
    candidates = []
    if os.environ.get("BAAS_SANDBOX"):
        candidates.append(Path(os.environ["BAAS_SANDBOX"]))
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    candidates.append(target / "debug" / "baas-sandbox")
    return next((c for c in candidates if c.is_file()), None)


def start_sandbox(**options: Any) -> SandboxProcess:
    """The sandbox binary, started with the SDK's own helper (skips, or fails in CI,
    when it is not built); ``options`` go to :class:`SandboxProcess`."""
    binary = sandbox_binary()
    if binary is None:
        if os.environ.get("BAAS_REQUIRE_SANDBOX") == "1":
            pytest.fail("the sandbox binary is not built (cargo build -p baas-sandbox --bin baas-sandbox)")
        pytest.skip("the sandbox binary is not built")
    return SandboxProcess(binary, **options).start()


@pytest.fixture(scope="session")
def sandbox() -> Iterator[SandboxProcess]:
    """One sandbox for the session's tests."""
    process = start_sandbox()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def fresh_sandbox() -> Iterator[SandboxProcess]:
    """A sandbox of a test's own (its state starts seeded)."""
    process = start_sandbox()
    try:
        yield process
    finally:
        process.stop()
