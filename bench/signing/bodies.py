#!/usr/bin/env python3
"""The bodies every language's signing benchmark measures, written the same way on every run.

    python3 bench/signing/bodies.py OUT_DIR

writes into OUT_DIR:
  small.json      a CNY Express request with three order items (about 1.4 KB), as a partner sends it
  page-30k.json   a getTransList answer page (about 30 KB, 100 rows)
  page-600k.json  a getTransList answer page (about 600 KB, 2,000 rows)
  manifest.json   [{"name", "file", "bytes", "key", "signature", "canonical_bytes"}]

Every body is signed under the same key ("partner-secret-key"), so "verify" (A in the benchmark)
recomputes its signature and compares. The content is fixed (no clock, no randomness): the same
bytes on every machine, so figures taken on two commits measure the code, not the data. The
signature is computed here by the document's algorithm written plainly (these bodies hold no
null, no empty container and no character the rules refuse, so the plain algorithm is exact).
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

KEY = "partner-secret-key"


def _flatten(prefix: str, value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else k, v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _flatten(f"{prefix}[{i}]", v, out)
    elif isinstance(value, str):
        out.append(f"{prefix}={value}")
    else:
        out.append(f"{prefix}={json.dumps(value)}")


def canonical(obj: dict[str, Any], key: str) -> bytes:
    pairs: list[str] = []
    _flatten("", {k: v for k, v in obj.items() if k != "signature"}, pairs)
    pairs.append(f"senderKey={key}")
    return "&".join(sorted(pairs, key=lambda p: p.encode())).encode()


def _signed(obj: dict[str, Any]) -> tuple[bytes, str, int]:
    canon = canonical(obj, KEY)
    signature = hashlib.sha256(canon).hexdigest()
    obj = dict(obj, signature=signature)
    # Compact, key order as built: what a service or an SDK writes on the wire.
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.encode(), signature, len(canon)


def small() -> dict[str, Any]:
    def order(i: int) -> dict[str, Any]:
        return {
            "productName": f"Product {i} 电子元件",
            "quantity": 10 * i,
            "amount": f"{i}2500.50",
            "orderTime": 1650533105687,
            "platform": f"https://shop.example.cn/item/{i}",
        }

    return {
        "requestId": "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
        "sender": "client1",
        "locale": "en_KE",
        "timestamp": 1650533105687,
        "salt": "9f8e7d6c5b4a39281706f5e4",
        "params": {
            "payerAccountId": "1002003004005",
            "beneficiaryType": "1",
            "beneficiaryName": "张三",
            "beneficiaryIdNumber": "110101199003071234",
            "beneficiaryCountryCode": "CN",
            "beneficiaryBankCode": "ICBKCNBJ",
            "beneficiaryBankName": "Industrial and Commercial Bank of China",
            "beneficiaryBankAddress": "55 Fuxingmennei Avenue, Beijing",
            "beneficiaryAccountId": "6222020200112233445",
            "paymentPurpose": "PURCHASE_GOODS",
            "messageToBeneficiary": "Invoice 2024-001 and 2024-002",
            "remark": "Q2 stock",
            "supportDocumentFile": "JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K",
            "supportDocumentType": "pdf",
            "companyRegisDocumentFile": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
            "companyRegisDocumentType": "image",
            "invoiceDocumentType": "pdf",
            "oderArray": [order(1), order(2), order(3)],
        },
    }


TX_TYPES = ["TTID0001", "TTID0002", "TTID0003", "TTID0007", "TTID0027"]
REMARKS = ["salary", "rent March", "invoice 88/2024", "top-up", "school fees, term 2", "张三 refund"]


def page(rows: int, total: int) -> dict[str, Any]:
    result = []
    for i in range(rows):
        created = 1700000000000 + i * 37_000
        result.append({
            "txId": f"TX{20240000000000 + i * 7919:016d}",
            "txType": TX_TYPES[i % len(TX_TYPES)],
            "txStatus": [8, 8, 8, 2, 4][i % 5],
            "amount": f"{(i * 7919) % 100000}.{i % 100:02d}",
            "currency": "KES" if i % 3 else "USD",
            "fee": i % 4 * 25 + 0.5 if i % 7 == 0 else 0,
            "createTime": created,
            "completeTime": created + 1500 + i % 900,
            "accountId": "1002003004005",
            "counterpartyName": f"Customer {i:05d}",
            "counterpartyAccount": f"25470{i * 31337 % 10_000_000:07d}",
            "remark": REMARKS[i % len(REMARKS)],
            "balanceAfter": f"{1_000_000 + (i * 104729) % 9_000_000}.{(i * 7) % 100:02d}",
            "channel": "MOBILE" if i % 2 else "API",
        })
    return {
        "requestId": "client1f00dfeedc0ffee0123456789abcdef",
        "code": "00000",
        "msg": "success",
        "data": {"totalRows": total, "result": result},
    }


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for name, obj in [("small", small()), ("page-30k", page(100, 4200)), ("page-600k", page(2000, 4200))]:
        text, signature, canon_len = _signed(obj)
        (out / f"{name}.json").write_bytes(text)
        manifest.append({
            "name": name,
            "file": f"{name}.json",
            "bytes": len(text),
            "key": KEY,
            "signature": signature,
            "canonical_bytes": canon_len + 0,
        })
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: bodies.py OUT_DIR")
    main(Path(sys.argv[1]))
