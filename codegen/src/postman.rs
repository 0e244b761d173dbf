//! A Postman collection (v2.1) of the whole API, generated from the checked [`Api`]:
//! `generated/postman/baas.postman_collection.json`.
//!
//! One folder per group, one request per operation (the two calls on
//! `/trans/txReversal` are two requests on that path), each with an example body that
//! passes the client's validation: required fields, values within the rules, and the
//! fields the constraints then require. The envelope's `requestId`, `timestamp`,
//! `salt` and `signature` are variables that the collection-level pre-request script
//! fills, signing exactly as `x-baas-signing` of the OpenAPI document says: it
//! flattens the very text that is sent (numbers as their literal text), so no value
//! passes through a float. The collection-level test script verifies each answer's
//! signature the same way, checks the requestId echo, and (for the requests named in
//! the `happyPath` variable) the success code.

use serde_json::{json, Value};

use crate::artifact::{Content, EmittedFile};
use crate::model::{Api, Operation};
use crate::plan::examples::{example_params, unquote_numbers};

/// Path of the collection below the output root (`generated/`).
pub const POSTMAN_PATH: &str = "postman/baas.postman_collection.json";

/// The generated files: the collection.
pub fn files(api: &Api) -> Vec<EmittedFile> {
    vec![EmittedFile {
        path: POSTMAN_PATH.to_owned(),
        content: Content::Text(crate::openapi::to_text(&collection(api))),
    }]
}

/// Flattening, signing and verification, written from the document's Authentication
/// section (shared by the pre-request and the test script).
const SIGNING_JS: &str = r#"// Signing as the OpenAPI document's x-baas-signing says: flatten the JSON *text*
// (numbers keep their literal text), skip the top-level signature and nulls,
// `a.b`, `a[i]`, `a={}`, `a=[]`, add senderKey=<key>, sort the whole pair
// strings by their UTF-8 bytes, join with '&', lowercase hex SHA-256.
var CryptoJS = require('crypto-js');
function baasPairs(text) {
    var i = 0, pairs = [];
    function ws() { while (i < text.length && ' \t\n\r'.indexOf(text[i]) >= 0) { i++; } }
    function str() {
        var start = i; i++;
        while (text[i] !== '"') { if (text[i] === '\\') { i++; } i++; }
        i++;
        return JSON.parse(text.slice(start, i));
    }
    function value(path, out) {
        ws();
        var c = text[i];
        if (c === '{') {
            i++; ws();
            if (text[i] === '}') { i++; if (path !== null) { out.push(path + '={}'); } return; }
            for (;;) {
                ws();
                var k = str(); ws(); i++;
                var p = path === null ? k : path + '.' + k;
                value(p, (path === null && k === 'signature') ? [] : out);
                ws();
                if (text[i] === ',') { i++; continue; }
                i++; return;
            }
        }
        if (c === '[') {
            i++; ws();
            if (text[i] === ']') { i++; out.push(path + '=[]'); return; }
            for (var n = 0; ; n++) {
                value(path + '[' + n + ']', out);
                ws();
                if (text[i] === ',') { i++; continue; }
                i++; return;
            }
        }
        if (c === '"') { out.push(path + '=' + str()); return; }
        var m = /^(-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?|true|false|null)/.exec(text.slice(i, i + 400));
        if (!m) { throw new Error('not JSON at ' + i); }
        i += m[0].length;
        if (m[0] !== 'null') { out.push(path + '=' + m[0]); }
    }
    value(null, pairs);
    return pairs;
}
function baasUtf8(s) { return unescape(encodeURIComponent(s)); }
function baasSign(text, key) {
    var pairs = baasPairs(text);
    pairs.push('senderKey=' + key);
    pairs.sort(function (a, b) { var x = baasUtf8(a), y = baasUtf8(b); return x < y ? -1 : (x > y ? 1 : 0); });
    return CryptoJS.SHA256(CryptoJS.enc.Utf8.parse(pairs.join('&'))).toString(CryptoJS.enc.Hex);
}"#;

const PRE_REQUEST_JS: &str = r#"// Fresh envelope values, then the signature over the body as it will be sent.
var hex = function (n) { return CryptoJS.lib.WordArray.random(n).toString(CryptoJS.enc.Hex); };
pm.variables.set('requestId', pm.variables.get('sender') + hex(16));
pm.variables.set('timestamp', String(Date.now()));
pm.variables.set('salt', hex(8));
var baasBody = pm.variables.replaceIn(pm.request.body.raw);
pm.variables.set('signature', baasSign(baasBody, pm.variables.get('senderKey')));"#;

fn test_js(success_code: &str) -> String {
    format!(
        r#"// Every answer: signed with the partner's key, verified over the received text.
var baasText = pm.response.text();
var baasAnswer = JSON.parse(baasText);
pm.test('the answer is signed and its signature verifies', function () {{
    pm.expect(baasAnswer.signature, 'signature').to.be.a('string');
    pm.expect(baasSign(baasText, pm.variables.get('senderKey'))).to.eql(baasAnswer.signature);
}});
pm.test('the answer echoes the requestId', function () {{
    pm.expect(baasAnswer.requestId).to.eql(pm.variables.get('requestId'));
}});
pm.test('the envelope was accepted: signature, sender, requestId (not 12002-12005)', function () {{
    pm.expect(['12002', '12003', '12004', '12005']).to.not.include(baasAnswer.code, baasAnswer.msg);
}});
var baasHappy = (pm.variables.get('happyPath') || '').split(',');
if (baasHappy.indexOf(pm.info.requestName) >= 0) {{
    pm.test('happy path: answered {success_code}', function () {{
        pm.expect(baasAnswer.code, baasAnswer.msg).to.eql('{success_code}');
    }});
}}"#
    )
}

fn script(listen: &str, text: &str) -> Value {
    json!({
        "listen": listen,
        "script": { "type": "text/javascript", "exec": text.lines().collect::<Vec<_>>() }
    })
}

/// The body text: the envelope with variables, `params` the example; a decimal sent as
/// a JSON number is written as its literal text.
fn raw_body(params: &Value) -> String {
    let params = serde_json::to_string_pretty(params).unwrap_or_default();
    let params = unquote_numbers(&params).replace('\n', "\n  ");
    format!(
        "{{\n  \"requestId\": \"{{{{requestId}}}}\",\n  \"sender\": \"{{{{sender}}}}\",\n  \"locale\": \"{{{{locale}}}}\",\n  \"timestamp\": {{{{timestamp}}}},\n  \"salt\": \"{{{{salt}}}}\",\n  \"params\": {params},\n  \"signature\": \"{{{{signature}}}}\"\n}}"
    )
}

fn request_item(api: &Api, op: &Operation) -> Value {
    let segments: Vec<&str> = op.path.trim_start_matches('/').split('/').collect();
    let mut doc = op.doc.clone();
    if let Some(note) = &op.deprecated {
        doc.push_str(&format!("\n\nDeprecated: {note}"));
    }
    if op.moves_money {
        doc.push_str("\n\n");
        doc.push_str(crate::plan::sentences::MOVES_MONEY);
    }
    if let (true, Some(flow)) = (op.otp, &api.otp_flow) {
        doc.push_str("\n\n");
        doc.push_str(&crate::plan::sentences::needs_otp(
            &flow.send.operation,
            &flow.confirm.operation,
        ));
    }
    json!({
        "name": op.name,
        "request": {
            "method": "POST",
            "header": [{ "key": "Content-Type", "value": "application/json" }],
            "url": {
                "raw": format!("{{{{baseUrl}}}}{}", op.path),
                "host": ["{{baseUrl}}"],
                "path": segments
            },
            "body": {
                "mode": "raw",
                "raw": raw_body(&example_params(api, op)),
                "options": { "raw": { "language": "json" } }
            },
            "description": doc
        }
    })
}

/// The whole collection.
pub fn collection(api: &Api) -> Value {
    let folders: Vec<Value> = api
        .groups
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "description": g.doc,
                "item": g.operations.iter().map(|op| request_item(api, op)).collect::<Vec<_>>()
            })
        })
        .collect();
    let pre = format!("{SIGNING_JS}\n{PRE_REQUEST_JS}");
    let test = format!("{SIGNING_JS}\n{}", test_js(&api.success_code));
    json!({
        "info": {
            "name": api.title,
            "description": format!(
                "Generated by `baas-codegen` from `spec/` (a rendering of `{}`): do not edit.\n\n\
                 Set `baseUrl`, `sender` and `senderKey` (the sandbox's are the defaults). The collection's \
                 pre-request script fills requestId, timestamp (epoch ms) and salt and signs the body; its test \
                 script verifies every answer's signature. Change only `params` in a body: the script signs the \
                 text as sent, so numbers keep their literal text.",
                api.source_document
            ),
            "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
        },
        "variable": [
            { "key": "baseUrl", "value": "http://127.0.0.1:8080" },
            { "key": "sender", "value": "sandbox-partner" },
            { "key": "senderKey", "value": "sandbox-test-key-not-a-secret" },
            { "key": "locale", "value": "en_KE" },
            { "key": "happyPath", "value": "" }
        ],
        "event": [script("prerequest", &pre), script("test", &test)],
        "item": folders
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_numbers_keep_their_text() {
        let params = json!({ "amount": "\u{0}number:100.50", "x": "a" });
        let body = raw_body(&params);
        assert!(body.contains("\"amount\": 100.50"), "{body}");
        assert!(body.contains("\"timestamp\": {{timestamp}}"), "{body}");
    }
}
