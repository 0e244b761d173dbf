"""Writes the `answers` and `notification_types` sections of signing-vectors.json (issue 35).

Run from the repository root with the Python SDK importable:
    PYTHONPATH=python python3 tests/data/make_answer_vectors.py
Signatures come from interop/signing.py's algorithm through baas_runtime (the same digest);
the other sections are left as they are.
"""

from __future__ import annotations

import json
from pathlib import Path

from baas_runtime.secret import PrivateKey
from baas_runtime.sign import sign

PATH = Path("tests/data/signing-vectors.json")
KEY = "yourkey"


def signed(text: str) -> str:
    """`text` (a JSON object) with its signature attached as the last member."""
    signature = sign(text.encode("utf-8"), PrivateKey(KEY))
    return text[:-1] + f',"signature":"{signature}"}}'


ANSWER = '"sender":"baas","locale":"en_KE","timestamp":1750000000000,"salt":"s1"'
answers = [
    ("a signed success that echoes the requestId", signed('{"requestId":"R1","code":"00000","msg":"ok",' + ANSWER + ',"data":{"balance":"10.00"}}'), {"outcome": "success"}),
    ("a signed refusal that echoes the requestId", signed('{"requestId":"R1","code":"14009","msg":"no such account",' + ANSWER + '}'), {"outcome": "failure", "code": "14009", "verified": True}),
    ("an unsigned refusal without requestId (the document allows it; its code proves nothing)", '{"code":"12005","msg":"Invalid signature"}', {"outcome": "failure", "code": "12005", "verified": False}),
    ("a signed success answering another request (a replayed old success)", signed('{"requestId":"R2","code":"00000","msg":"ok",' + ANSWER + ',"data":{"status":8}}'), {"outcome": "refused", "refusal": "request_id_mismatch"}),
    ("a signed success without requestId", signed('{"code":"00000","msg":"ok",' + ANSWER + ',"data":{"status":8}}'), {"outcome": "refused", "refusal": "request_id_mismatch"}),
    ("a signed refusal answering another request", signed('{"requestId":"R2","code":"14009","msg":"no",' + ANSWER + '}'), {"outcome": "refused", "refusal": "request_id_mismatch"}),
    ("a 2020-dated notification given as the answer, with the same requestId", signed('{"requestId":"R1","sender":"baas","notificationType":"0028","locale":"en_KE","timestamp":1577836800000,"salt":"s2","params":{"applicationId":"A1","status":8}}'), {"outcome": "refused", "refusal": "wrong_kind"}),
    ("a bare notification given as the answer", signed('{"requestId":"R1","notificationType":"0015","timestamp":1750000000000,"salt":"s3"}'), {"outcome": "refused", "refusal": "wrong_kind"}),
    ("a request given as the answer", signed('{"requestId":"R1","sender":"partner","locale":"en_KE","timestamp":1750000000000,"salt":"s4","params":{}}'), {"outcome": "refused", "refusal": "wrong_kind"}),
    ("a success that also carries notificationType", signed('{"requestId":"R1","code":"00000","msg":"ok","notificationType":"0028",' + ANSWER + '}'), {"outcome": "refused", "refusal": "wrong_kind"}),
    ("an unsigned success", '{"requestId":"R1","code":"00000","msg":"ok","data":{"balance":"10.00"}}', {"outcome": "refused", "refusal": "signature_missing"}),
    ("a success altered after signing", signed('{"requestId":"R1","code":"00000","msg":"ok",' + ANSWER + ',"data":{"balance":"10.00"}}').replace("10.00", "99.00"), {"outcome": "refused", "refusal": "signature_invalid"}),
    ("a signed body with no code", signed('{"requestId":"R1","msg":"ok",' + ANSWER + '}'), {"outcome": "refused", "refusal": "malformed"}),
]

NOTE = '{"requestId":"N1","sender":"baas","notificationType":%s,"locale":"en_KE","timestamp":1750000000000,"salt":"s5","params":{}}'
types = [
    ("a string, as the service sends it", '"0028"', {"outcome": "accepted", "notification_type": "0028"}),
    ("a string of letters", '"X9"', {"outcome": "accepted", "notification_type": "X9"}),
    ("a JSON integer", "28", {"outcome": "refused"}),
    ("zero as a JSON integer", "0", {"outcome": "refused"}),
    ("a JSON number with a fraction", "28.0", {"outcome": "refused"}),
    ("a JSON number with an exponent", "2.8e1", {"outcome": "refused"}),
    ("a negative JSON number", "-28", {"outcome": "refused"}),
    ("true", "true", {"outcome": "refused"}),
    ("an object", '{"n":"0028"}', {"outcome": "refused"}),
]

vectors = json.loads(PATH.read_text(encoding="utf-8"))
ADDED = (
    " answers (issue 35): `body` is received as the answer to the request whose requestId is"
    " `request_id`, under `key`, by each language's answer verification (Rust open_response,"
    " Python open_response, TypeScript openResponse, Java Signer.verifyAnswer, PHP"
    " Signer::verifyAnswer); `expect.outcome` is `success`, `failure` (with the `code` and"
    " whether the signature was `verified`) or `refused`, with `refusal` one of"
    " request_id_mismatch (an echo of another request, or none on a signed answer), wrong_kind"
    " (a notification or a request, or an answer carrying notificationType or params),"
    " signature_missing, signature_invalid, malformed. notification_types: `body` is a"
    " notification signed under `key` from `service_sender`, verified at `now_ms`:"
    " notificationType must be a JSON string (taken as it is); any other JSON type, a number"
    " included, is refused."
)
if "answers (issue 35)" not in vectors["note"]:
    vectors["note"] += ADDED
vectors["answers"] = [
    {"name": name, "key": KEY, "request_id": "R1", "body": body, "expect": expect}
    for name, body, expect in answers
]
vectors["notification_types"] = [
    {"name": name, "key": KEY, "service_sender": "baas", "now_ms": 1750000000000, "body": signed(NOTE % literal), "expect": expect}
    for name, literal, expect in types
]
PATH.write_text(json.dumps(vectors, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
print(f"{len(answers)} answers, {len(types)} notification_types")
