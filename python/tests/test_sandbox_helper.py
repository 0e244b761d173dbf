"""The SDK's sandbox helper (``SandboxProcess``, ``SandboxAdmin``): against the sandbox
binary, and its refusals without one."""

from __future__ import annotations

import http.server
import threading
import time
from decimal import Decimal

import httpx
import pytest

from baas_client import (
    ApiError,
    BaasError,
    Client,
    ResultCode,
    SandboxAdmin,
    SandboxAdminError,
    SandboxProcess,
    Verifier,
)
from baas_client.enums import Currency, OtpType, TxStatus
from conftest import start_sandbox


def test_the_helper_starts_the_sandbox_and_reads_its_sender_key_and_otp() -> None:
    sandbox = start_sandbox()
    try:
        assert sandbox.url.startswith("http://127.0.0.1:")
        assert sandbox.sender == "sandbox-partner"
        assert "sandbox-test-key" not in repr(sandbox.private_key)
        with Client(sandbox.config()) as client:
            pending = client.apply_for_transfer_pending(
                payer_account_id="1000000001",
                payee_bank_code="46",
                payee_account_id="1000000004",
                currency=Currency.KES,
                amount=Decimal("12.50"),
            )
            rows = sandbox.admin.pending_applications()
            mine = [a for a in rows if a.business_id == pending.business_id]
            assert len(mine) == 1 and mine[0].operation == "applyForTransfer"
            assert not mine[0].otp_sent
            pending.send_otp(OtpType.SMS)
            otp = sandbox.admin.otp(pending.business_id)
            assert len(otp) == 6 and otp.isdigit()
            pending.confirm(otp)
            result = client.get_trans_result(tx_id=pending.business_id)
            assert result.tx_status is TxStatus.SUCCEEDED
            # Confirmed: no longer pending, and the helper says so, naming the id.
            with pytest.raises(SandboxAdminError, match=pending.business_id):
                sandbox.admin.otp(pending.business_id)
    finally:
        sandbox.stop()
        sandbox.stop()  # twice is fine
    with pytest.raises(RuntimeError):
        sandbox.admin.state()


def test_faults_clock_and_refusals_through_the_admin_api(sandbox: SandboxProcess) -> None:
    admin = sandbox.admin
    with pytest.raises(SandboxAdminError) as bad:
        admin.add_faults("faults:\n  - operation: noSuchOperation\n    fault: code\n")
    assert bad.value.status == 400
    assert "noSuchOperation" in str(bad.value)
    said = admin.add_faults(
        'faults:\n  - operation: getAccountDetails\n    fault: code\n    code: "10000"\n'
    )
    assert said.startswith("1 fault")
    assert len(admin.state()["faults"]) == 1
    with Client(sandbox.config(max_retries=0)) as client:
        with pytest.raises(ApiError) as refused:
            client.get_account_details(account_id="1000000001")
        assert ResultCode.from_error(refused.value) is ResultCode.SYSTEM_ERROR
        admin.clear_faults()
        assert admin.state()["faults"] == []
        assert client.get_account_details(account_id="1000000001").account_id == "1000000001"
    before = admin.state()["clock_ms"]
    admin.advance_clock(86_400_000)
    assert admin.state()["clock_ms"] - before >= 86_400_000
    assert any(r.get("operation") == "getAccountDetails" for r in admin.requests())
    assert admin.deliveries() == []  # no callback URL: nothing delivered
    with pytest.raises(SandboxAdminError) as unknown:
        admin.redeliver("NO-SUCH-NOTIFICATION")
    assert unknown.value.status == 400


def _counting(handler: httpx.MockTransport) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return handler.handle_request(request)

    return httpx.MockTransport(record), seen


def test_a_refusal_carries_the_sandboxs_message_and_nothing_is_sent_for_a_bad_clock() -> None:
    inner = httpx.MockTransport(
        lambda request: httpx.Response(400, json={"error": "scenario line 3: unknown fault `nope`"})
    )
    transport, seen = _counting(inner)
    with SandboxAdmin("http://127.0.0.1:9", transport=transport) as admin:
        with pytest.raises(SandboxAdminError, match="line 3: unknown fault") as refused:
            admin.add_faults("faults: []")
        assert refused.value.status == 400
        assert seen[0].url.path == "/_sandbox/faults"
        assert seen[0].headers["content-type"] == "application/yaml"
        for bad in (-1, 1.5, True):
            with pytest.raises(ValueError):
                admin.advance_clock(bad)  # type: ignore[arg-type]
        assert len(seen) == 1


def test_an_unreachable_or_odd_sandbox_is_a_sandbox_admin_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with SandboxAdmin("http://127.0.0.1:9", transport=httpx.MockTransport(refuse)) as admin:
        with pytest.raises(SandboxAdminError) as down:
            admin.state()
        assert down.value.status is None
    odd = httpx.MockTransport(lambda request: httpx.Response(200, json={"not": "a list"}))
    with SandboxAdmin("http://127.0.0.1:9", transport=odd) as admin:
        with pytest.raises(SandboxAdminError, match="not a JSON array"):
            admin.pending_applications()


def test_a_program_that_is_not_the_sandbox_fails_to_start_saying_what_it_printed(tmp_path: object) -> None:
    with pytest.raises(RuntimeError, match="did not start"):
        SandboxProcess("/bin/false", startup_timeout=5).start()
    with pytest.raises(FileNotFoundError):
        SandboxProcess("/nonexistent/baas-sandbox").start()


def test_with_an_admin_token_the_helper_sends_it_and_a_helper_without_it_is_refused() -> None:
    sandbox = start_sandbox(admin_token="py-token-35")
    try:
        assert "clock_ms" in sandbox.admin.state()
        sandbox.admin.advance_clock(1000)
        for token in (None, "py-token-3"):
            with SandboxAdmin(sandbox.url, admin_token=token) as other:
                with pytest.raises(SandboxAdminError) as refused:
                    other.state()
                assert refused.value.status == 403
                assert "--admin-token" in str(refused.value)
        assert any(line.startswith("token:") for line in sandbox.output)
    finally:
        sandbox.stop()


def test_the_service_sender_is_printed_exposed_and_verifies_the_sandboxs_notifications() -> None:
    # Issue 34: a receiver given any other sender refuses every delivery; the helper says
    # which one the sandbox signs with, and the banner prints it.
    bodies: list[bytes] = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            bodies.append(self.rfile.read(int(self.headers["content-length"])))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sandbox = start_sandbox(callback_url=f"http://127.0.0.1:{server.server_address[1]}/cb")
    try:
        assert sandbox.service_sender == "baas-sandbox"
        assert any(line.startswith("service: baas-sandbox") for line in sandbox.output)
        assert sandbox.admin.service_sender == sandbox.service_sender
        with SandboxAdmin(sandbox.url) as attached:  # attached to a running sandbox
            assert attached.service_sender == "baas-sandbox"
            assert attached.state()["accounts"]
        with Client(sandbox.config()) as client:
            client.apply_for_fc_exchange(
                source_currency=Currency.USD, target_currency=Currency.KES,
                source_account="1000000002", target_account="1000000001",
                source_amount=Decimal("10.00"),
            )
        deadline = time.monotonic() + 10
        while not bodies and time.monotonic() < deadline:
            time.sleep(0.05)
        assert bodies, "no notification delivered"
        n = Verifier(sandbox.private_key, sandbox.service_sender).verify(bodies[0])
        assert n.sender == "baas-sandbox" and n.notification_type == "0026"
        with pytest.raises(BaasError):
            Verifier(sandbox.private_key, "service-sender").verify(bodies[0])
    finally:
        sandbox.stop()
        server.shutdown()


def _documented_admin_api() -> dict[str, set[str]]:
    """The README's table of the admin API's JSON: each path's members."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table: dict[str, set[str]] = {}
    for line in readme.splitlines():
        row = re.match(r"^\| `/_sandbox/api/(\w+)` \| [^|]+ \| (.+) \|$", line)
        if row:
            # The members are the code spans that start each comma-separated item.
            items = re.split(r",\s*(?![^()]*\))", row.group(2))
            table[row.group(1)] = {m.group(1) for i in items if (m := re.match(r"\s*`(\w+)`", i))}
    return table


def test_the_readmes_admin_api_table_names_every_member_the_sandbox_serves() -> None:
    # Issue 34: the admin API's JSON was undocumented. The README's table is checked against a
    # running sandbox, attached to by URL as a partner would, with every array non-empty.
    documented = _documented_admin_api()
    assert set(documented) == {"state", "accounts", "transactions", "applications", "requests", "deliveries", "faults"}
    sandbox = start_sandbox()
    try:
        with Client(sandbox.config()) as client, SandboxAdmin(sandbox.url) as admin:
            admin.add_faults('faults:\n  - operation: getBankCodes\n    fault: code\n    code: "10000"\n')
            client.apply_for_transfer_pending(
                payer_account_id="1000000001", payee_bank_code="46", payee_account_id="1000000004",
                currency=Currency.KES, amount=Decimal("1.00"),
            )
            client.apply_for_fc_exchange(  # booked at once: a transaction and a notification
                source_currency=Currency.USD, target_currency=Currency.KES,
                source_account="1000000002", target_account="1000000001", source_amount=Decimal("1.00"),
            )
            state = admin.state()
            assert set(state) == documented["state"], "README table vs /_sandbox/api/state"
            for part in ["accounts", "transactions", "applications", "requests", "deliveries", "faults"]:
                rows = httpx.get(f"{sandbox.url}/_sandbox/api/{part}", trust_env=False).json()
                assert isinstance(rows, list) and rows, f"/_sandbox/api/{part} is empty: nothing to compare"
                for row in rows:
                    assert set(row) == documented[part], f"README table vs /_sandbox/api/{part}: {sorted(row)}"
    finally:
        sandbox.stop()
