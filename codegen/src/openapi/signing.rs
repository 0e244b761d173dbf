//! `x-baas-signing`: the signing algorithm in words and as data.

use serde_json::{json, Value};

/// The signing algorithm in words and as data (`x-baas-signing`), shared with the
/// Postman collection.
pub fn signing_extension() -> Value {
    json!({
        "algorithm": "SHA-256 (plain, not HMAC) of the canonical string, written as lowercase hex into `signature`",
        "canonical_string": [
            "Take the message object as sent (or received) without its top-level `signature` member.",
            "Flatten it to `path=value` pairs: object members as `parent.key` (a top-level member is just `key`), array elements as `path[i]` (i from 0, in decimal), an empty object as `path={}`, an empty array as `path=[]`; null values are skipped (never send one).",
            "Values: a string as its unescaped text (UTF-8), a number as its literal text in the JSON bytes (`100.50` stays `100.50`), a boolean as `true` or `false`.",
            "Add the pair `senderKey=<private key>`.",
            "Sort the complete pair strings by their UTF-8 bytes (not by key: `amount2=…` sorts before `amount=…`, `[10]` before `[1]`).",
            "Join them with `&`."
        ],
        "flatten": {
            "object_member": "parent.key",
            "array_element": "path[i]",
            "empty_object": "path={}",
            "empty_array": "path=[]",
            "null": "skipped",
            "string": "unescaped text",
            "number": "literal text as in the JSON bytes",
            "boolean": "true | false"
        },
        "sort": "complete `path=value` strings, by bytes",
        "join": "&",
        "key_pair": "senderKey",
        "hash": "sha256",
        "encoding": "lowercase hex",
        "timestamp": "epoch milliseconds, a JSON integer",
        "locale": "signed exactly as sent (en_KE), never lower-cased",
        "request": "sign the envelope (requestId, sender, locale, timestamp, salt, params) and send it with `signature`; senderKey is never sent",
        "response": "verify: remove `signature`, add senderKey (the partner's own key), flatten, sort, join, hash and compare; numbers are taken as their literal text in the received bytes",
        "notifications": "signed like a request, with the partner's key; answer the plain body `ok`",
        "example": {
            "message": {
                "requestId": "APPREQ00990320fed02000",
                "sender": "client1",
                "locale": "en_KE",
                "timestamp": 1_650_533_105_687_i64,
                "salt": "QcEwsZ123da",
                "params": { "name": "Tester" }
            },
            "key": "yourkey",
            "canonical_string": "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da&sender=client1&senderKey=yourkey&timestamp=1650533105687",
            "signature": "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
        }
    })
}
