"""Driving the BaaS sandbox (the ``baas-sandbox`` program, a loopback stand-in of the
service) from your own tests: start it on a free port, build a client for it, read the
OTP of a pending application, put faults in force, move its clock, deliver a
notification again, and read what happened.

    from baas_client import Client, SandboxProcess

    with SandboxProcess() as sandbox, Client(sandbox.config()) as client:
        pending = client.apply_for_transfer_pending(...)
        pending.send_otp(OtpType.SMS)
        pending.confirm(sandbox.admin.otp(pending.business_id))

The sandbox's admin API is unsigned and answers loopback callers only; nothing here is
meant for the live service.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

from .config import Config
from .secret import PrivateKey

__all__ = [
    "SERVICE_SENDER",
    "SandboxAdmin",
    "SandboxAdminError",
    "SandboxApplication",
    "SandboxDelivery",
    "SandboxProcess",
]

_ADMIN = "/_sandbox"
#: The sandbox's service sender: the ``sender`` of every answer and notification it signs,
#: what a notification ``Verifier`` is given (``Verifier(key, SERVICE_SENDER)``). The live
#: service's sender name comes from your bank.
SERVICE_SENDER = "baas-sandbox"
_LISTENING = "baas-sandbox listening on "


class SandboxAdminError(Exception):
    """The sandbox refused an admin call (its own message), or could not be reached.
    ``status`` is the HTTP status of a refusal, ``None`` when nothing answered."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class SandboxApplication:
    """An application waiting for its OTP, as the sandbox shows it."""

    #: The OTP's ``businessId`` (a transfer's ``txId``, an application's id, ...).
    business_id: str
    #: The operation that created it, e.g. ``applyForTransfer``.
    operation: str
    #: Whether ``sendOtp`` was called for it.
    otp_sent: bool
    #: Wrong OTPs given so far.
    wrong_attempts: int
    #: The OTP that confirms it.
    otp: str


@dataclass(frozen=True)
class SandboxDelivery:
    """One attempt to deliver a notification to the callback URL."""

    #: ``notificationType``, e.g. ``0028``.
    notification_type: str
    #: The notification's ``requestId`` (the same on every attempt).
    request_id: str
    #: 1 for the first attempt.
    attempt: int
    #: Whether the receiver answered ``ok``.
    acknowledged: bool
    #: What happened (``ok``, the receiver's answer, or why it failed).
    outcome: str


class SandboxAdmin:
    """The sandbox's admin API at ``base_url`` (``http://127.0.0.1:PORT``, as the sandbox
    prints it). Blocking; one ``httpx.Client``, closed by :meth:`close` or ``with``.
    ``admin_token``: the token of a sandbox started with ``--admin-token`` (its banner prints
    it), sent in the ``X-Sandbox-Admin-Token`` header of every admin request.

    Attach to a sandbox that is already running (started by ``cargo run -p baas-sandbox``,
    another test, a container): ``SandboxAdmin("http://127.0.0.1:8080")``."""

    #: The sandbox's service sender (``baas-sandbox``): the sender of its answers and
    #: notifications, for ``Verifier(key, admin.service_sender)``.
    service_sender: str = SERVICE_SENDER

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
        admin_token: str | None = None,
    ) -> None:
        headers = {} if admin_token is None else {"x-sandbox-admin-token": admin_token}
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=timeout,
            transport=transport,
            trust_env=False,
            headers=headers,
        )

    def close(self) -> None:
        """Closes the connection pool."""
        self._http.close()

    def __enter__(self) -> SandboxAdmin:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ---- reading ----

    def state(self) -> dict[str, Any]:
        """Everything the admin page shows: ``clock_ms``, ``accounts``, ``transactions``,
        ``pending_applications``, ``requests``, ``deliveries``, ``faults``, ..."""
        got = self._get("api/state")
        if not isinstance(got, dict):
            raise SandboxAdminError("the sandbox's state is not a JSON object")
        return got

    def pending_applications(self) -> list[SandboxApplication]:
        """The applications waiting for their OTP."""
        return [
            SandboxApplication(
                business_id=str(row["business_id"]),
                operation=str(row["operation"]),
                otp_sent=bool(row["otp_sent"]),
                wrong_attempts=int(row["wrong_attempts"]),
                otp=str(row["otp"]),
            )
            for row in self._rows("api/applications")
        ]

    def otp(self, business_id: str) -> str:
        """The OTP that confirms the pending application ``business_id``. Raises
        :class:`SandboxAdminError` naming the pending ones when it is not pending."""
        pending = self.pending_applications()
        for application in pending:
            if application.business_id == business_id:
                return application.otp
        waiting = ", ".join(a.business_id for a in pending) or "none"
        raise SandboxAdminError(
            f"no application {business_id!r} waits for an OTP (pending: {waiting})"
        )

    def deliveries(self) -> list[SandboxDelivery]:
        """Every attempt to deliver a notification, newest first."""
        return [
            SandboxDelivery(
                notification_type=str(row["notification_type"]),
                request_id=str(row["request_id"]),
                attempt=int(row["attempt"]),
                acknowledged=bool(row["acknowledged"]),
                outcome=str(row["outcome"]),
            )
            for row in self._rows("api/deliveries")
        ]

    def requests(self) -> list[dict[str, Any]]:
        """The last requests the sandbox answered (newest first), each with its answer,
        whether its signature verified and, for a ``12005``, the canonical string the
        sandbox expected (the key redacted)."""
        return self._rows("api/requests")

    # ---- acting ----

    def add_faults(self, scenario_yaml: str) -> str:
        """Puts the faults of a YAML scenario (``faults: [...]``) in force; returns the
        sandbox's word (``"2 fault(s) added"``). A scenario it cannot read raises
        :class:`SandboxAdminError` with its message, naming the line."""
        return self._post("faults", scenario_yaml, "application/yaml")

    def clear_faults(self) -> None:
        """Removes every fault in force."""
        self._post("faults/clear", "", "text/plain")

    def advance_clock(self, ms: int) -> None:
        """Moves the sandbox's clock forward by ``ms`` milliseconds (``86_400_000`` closes a
        day). Refuses a negative or non-integer ``ms`` before sending anything."""
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
            raise ValueError(f"advance_clock: {ms!r} is not a whole number of milliseconds ≥ 0")
        self._post("clock", str(ms), "text/plain")

    def redeliver(self, request_id: str) -> None:
        """Delivers the notification ``request_id`` again: the same body and requestId."""
        self._post("redeliver", request_id, "text/plain")

    # ---- HTTP ----

    def _get(self, path: str) -> Any:
        try:
            answer = self._http.get(f"{_ADMIN}/{path}")
        except httpx.HTTPError as e:
            raise SandboxAdminError(f"GET {_ADMIN}/{path}: {e}") from e
        if answer.status_code != 200:
            raise SandboxAdminError(
                f"GET {_ADMIN}/{path}: HTTP {answer.status_code}: {answer.text.strip()}",
                answer.status_code,
            )
        try:
            return json.loads(answer.content)
        except ValueError as e:
            raise SandboxAdminError(f"GET {_ADMIN}/{path}: not JSON ({e})") from e

    def _rows(self, path: str) -> list[dict[str, Any]]:
        got = self._get(path)
        if not isinstance(got, list) or not all(isinstance(r, dict) for r in got):
            raise SandboxAdminError(f"GET {_ADMIN}/{path}: not a JSON array of objects")
        return got

    def _post(self, path: str, body: str, content_type: str) -> str:
        try:
            answer = self._http.post(
                f"{_ADMIN}/{path}",
                content=body.encode("utf-8"),
                headers={"content-type": content_type},
            )
        except httpx.HTTPError as e:
            raise SandboxAdminError(f"POST {_ADMIN}/{path}: {e}") from e
        try:
            said = json.loads(answer.content)
        except ValueError:
            said = None
        if answer.status_code == 200 and isinstance(said, dict) and "done" in said:
            return str(said["done"])
        message = said.get("error") if isinstance(said, dict) else None
        raise SandboxAdminError(
            f"POST {_ADMIN}/{path}: {message or answer.text.strip() or answer.status_code}",
            answer.status_code,
        )


class SandboxProcess:
    """A ``baas-sandbox`` program run on a free loopback port for the length of a
    ``with`` block (or between :meth:`start` and :meth:`stop`).

    ``binary`` defaults to ``$BAAS_SANDBOX``, else ``baas-sandbox`` on the ``PATH``.
    ``callback_url`` is where notifications go; ``scenario`` a YAML file of faults put in
    force from the start; ``state_file`` keeps the state across runs (SQLite);
    ``admin=False`` turns the admin API off (then :attr:`admin` raises); ``admin_token``
    makes the admin API require that token (``--admin-token``), which :attr:`admin` sends.
    """

    def __init__(
        self,
        binary: str | os.PathLike[str] | None = None,
        *,
        callback_url: str | None = None,
        scenario: str | os.PathLike[str] | None = None,
        state_file: str | os.PathLike[str] | None = None,
        admin: bool = True,
        admin_token: str | None = None,
        startup_timeout: float = 30.0,
    ) -> None:
        self._args = [str(_binary(binary)), "--port", "0"]
        if callback_url is not None:
            self._args += ["--callback", callback_url]
        if scenario is not None:
            self._args += ["--scenario", str(scenario)]
        if state_file is not None:
            self._args += ["--state", str(state_file)]
        if not admin:
            self._args.append("--no-admin")
        if admin_token is not None:
            self._args += ["--admin-token", admin_token]
        self._admin_on = admin
        self._admin_token = admin_token
        self._startup_timeout = startup_timeout
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self._admin: SandboxAdmin | None = None
        self._output: collections.deque[str] = collections.deque(maxlen=200)
        self.url = ""
        self.sender = ""
        #: The sender of the sandbox's answers and notifications, as its banner prints it
        #: (``baas-sandbox``): give it to your notification ``Verifier``.
        self.service_sender = SERVICE_SENDER
        self._key: PrivateKey | None = None

    def start(self) -> SandboxProcess:
        """Starts the program and waits until it says where it listens, its sender and
        its key. Raises ``RuntimeError`` (with what it printed) if it exits or takes
        longer than ``startup_timeout`` seconds."""
        if self._process is not None:
            return self
        process = subprocess.Popen(
            self._args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        self._process = process
        banner = threading.Event()
        self._reader = threading.Thread(target=self._read, args=(process, banner), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + self._startup_timeout
        while not banner.wait(0.05):
            if process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                printed = "\n".join(self._output) or "(nothing)"
                raise RuntimeError(f"the sandbox did not start ({' '.join(self._args)}):\n{printed}")
        return self

    def _read(self, process: subprocess.Popen[str], banner: threading.Event) -> None:
        # Reads every line the program prints (so it never blocks on a full pipe), and
        # takes its address, sender and key from the banner.
        assert process.stdout is not None
        for line in process.stdout:
            line = line.rstrip("\n")
            self._output.append(line)
            if line.startswith(_LISTENING):
                self.url = line[len(_LISTENING) :].strip()
            elif line.startswith("sender:"):
                self.sender = line.split(":", 1)[1].strip()
            elif line.startswith("service:"):
                words = line.split(":", 1)[1].split()
                if words:
                    self.service_sender = words[0]
            elif line.startswith("key:"):
                words = line.split(":", 1)[1].split()
                if words:
                    self._key = PrivateKey(words[0])
            if self.url and self.sender and self._key is not None:
                banner.set()

    @property
    def private_key(self) -> PrivateKey:
        """The key the sandbox signs and verifies with (a test key)."""
        if self._key is None:
            raise RuntimeError("the sandbox is not started")
        return self._key

    @property
    def admin(self) -> SandboxAdmin:
        """Its admin API (the sandbox must run with ``admin=True``)."""
        if not self._admin_on:
            raise RuntimeError("the sandbox runs without its admin API (admin=False)")
        if self._process is None:
            raise RuntimeError("the sandbox is not running")
        if self._admin is None:
            self._admin = SandboxAdmin(self.url, admin_token=self._admin_token)
        return self._admin

    def config(self, **options: Any) -> Config:
        """A client configuration for this sandbox (its URL, sender and key); ``options``
        are passed to :class:`Config` (``request_timeout=...``)."""
        return Config(self.url, self.sender, self.private_key, **options)

    @property
    def output(self) -> list[str]:
        """The last lines the program printed."""
        return list(self._output)

    def stop(self) -> None:
        """Stops the program (SIGTERM, then SIGKILL after 10 s). Safe to call twice."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        # The reader ends at the pipe's end, once the program has exited.
        if self._reader is not None:
            self._reader.join(timeout=10)
            self._reader = None
        if process.stdout is not None:
            process.stdout.close()

    def __enter__(self) -> SandboxProcess:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _binary(binary: str | os.PathLike[str] | None) -> Path:
    if binary is not None:
        return Path(binary)
    if os.environ.get("BAAS_SANDBOX"):
        return Path(os.environ["BAAS_SANDBOX"])
    found = shutil.which("baas-sandbox")
    if found is None:
        raise FileNotFoundError(
            "no baas-sandbox program: pass binary=..., set BAAS_SANDBOX, or put it on the PATH"
        )
    return Path(found)
