"""The processed-ids store (issue 35): ids are kept from when they were recorded, so a
re-delivery re-signed after an outage longer than the freshness window is not processed
again; any id is recorded exactly and survives a reopen."""

from __future__ import annotations

import json
from pathlib import Path

from baas_runtime.notification import (
    DEFAULT_KEEP,
    DeliveryId,
    Notification,
    SeenFile,
    Verifier,
    signed_body,
)
from baas_runtime.secret import PrivateKey

HOUR = 3_600_000
T0 = 1_750_000_000_000
KEY = PrivateKey("k")


def _n(kind: str, request_id: str) -> Notification:
    body = signed_body(kind, request_id, "svc", "en_KE", {}, KEY, timestamp_ms=T0)
    return Verifier(KEY, "svc").verify(body, now_ms=T0)


def test_a_re_signed_re_delivery_after_an_outage_longer_than_the_window_is_not_new(
    tmp_path: Path,
) -> None:
    verifier = Verifier(KEY, "svc")
    first = signed_body("0015", "NTF-1", "svc", "en_KE", {"jobId": "J1"}, KEY, timestamp_ms=T0)
    seen = SeenFile(tmp_path / "seen", now_ms=T0)
    got = verifier.verify(first, now_ms=T0)
    assert seen.is_new(got.delivery_id)
    seen.record(got, now_ms=T0)
    # Down for three days (three times the window); the service re-signs the delivery.
    back = T0 + 72 * HOUR
    again = signed_body("0015", "NTF-1", "svc", "en_KE", {"jobId": "J1"}, KEY, timestamp_ms=back)
    redelivered = verifier.verify(again, now_ms=back)
    assert not SeenFile(tmp_path / "seen", now_ms=back).is_new(redelivered.delivery_id)
    # Kept for DEFAULT_KEEP after it was recorded, then dropped.
    later = T0 + int(DEFAULT_KEEP * 1000) + 1
    assert SeenFile(tmp_path / "seen", now_ms=later).is_new(redelivered.delivery_id)


IDS = [
    "N 1 with spaces",
    "cr\rhere",
    "lf\nhere",
    "crlf\r\n",
    "ls\u2028here",
    "nel\u0085here",
    "vt\u000bff\u000cfs\u001cgs\u001drs\u001e",
    "ps\u2029tab\tnul\u0000",
    "100%25 literal %",
    "é日本🎉",
    "",
    " ",
]


def test_any_id_is_recorded_exactly_and_survives_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "seen"
    seen = SeenFile(path, now_ms=T0)
    kinds = ["0028", "00 28", "0\n28"]
    for request_id in IDS:
        for kind in kinds:
            seen.record(_n(kind, request_id), now_ms=T0)  # never refuses an id
    assert path.read_bytes().isascii()
    reopened = SeenFile(path, now_ms=T0 + HOUR)
    assert len(reopened) == len(IDS) * len(kinds)
    for request_id in IDS:
        for kind in kinds:
            assert not reopened.is_new(DeliveryId(request_id, kind)), (kind, request_id)
        assert reopened.is_new(DeliveryId(request_id, "0015"))
    for other in ["N", "N 1", "cr", "cr\n", "ls", "100% literal %", "lf here"]:
        assert reopened.is_new(DeliveryId(other, "0028")), other
    # A line cut short by a crash is skipped, the rest kept.
    with open(path, "ab") as f:
        f.write(b"12 00")
    assert len(SeenFile(path, now_ms=T0)) == len(IDS) * len(kinds)


def test_the_file_is_the_rust_format_and_the_first_format_is_read(tmp_path: Path) -> None:
    path = tmp_path / "seen"
    path.write_text(f"{T0} 0028 N 1 with spaces\n{T0 - 40 * 24 * HOUR} 0015 OLD\n", encoding="utf-8")
    seen = SeenFile(path, now_ms=T0)
    assert not seen.is_new(DeliveryId("N 1 with spaces", "0028"))
    assert seen.is_new(DeliveryId("OLD", "0015"))
    text = path.read_text(encoding="ascii")
    assert text.startswith("# baas seen-notifications v2:")
    assert f"\n{T0} 0028 N%201%20with%20spaces\n" in text


def test_a_failed_write_keeps_the_id_known_and_writes_it_later(tmp_path: Path) -> None:
    path = tmp_path / "seen"
    seen = SeenFile(path, now_ms=T0)
    path.unlink()
    path.mkdir()  # appending to a directory fails
    first = _n("0028", "A")
    try:
        seen.record(first, now_ms=T0)
        raise AssertionError("the failed write is reported")
    except OSError:
        pass
    assert not seen.is_new(first.delivery_id)  # a re-delivery is acknowledged
    path.rmdir()
    seen.record(_n("0028", "B"), now_ms=T0)  # writes A's line too
    reopened = SeenFile(path, now_ms=T0)
    assert not reopened.is_new(DeliveryId("A", "0028"))
    assert not reopened.is_new(DeliveryId("B", "0028"))


def test_the_shared_file_reads_and_writes_the_same_in_every_language(tmp_path: Path) -> None:
    """tests/data/seen-file.json: the file the Rust and TypeScript stores read and write
    too, byte for byte."""
    shared = json.loads(
        (Path(__file__).resolve().parents[2] / "tests" / "data" / "seen-file.json").read_text(encoding="utf-8")
    )
    recorded = shared["recorded_ms"]
    (tmp_path / "read").write_bytes(shared["file"].encode("ascii"))
    seen = SeenFile(tmp_path / "read", now_ms=recorded + HOUR)
    assert len(seen) == len(shared["ids"])
    for kind, request_id in shared["ids"]:
        assert not seen.is_new(DeliveryId(request_id, kind)), (kind, request_id)
    mine = SeenFile(tmp_path / "written", now_ms=recorded)
    for kind, request_id in shared["ids"]:
        mine.record(_n(kind, request_id), now_ms=recorded)
    assert (tmp_path / "written").read_bytes() == shared["file"].encode("ascii")
