//! A request's envelope signed as it is written (issue 36 item 4: the call's own work).
//!
//! The envelope's members besides `params` are the runtime's own, so their keys and
//! the canonical order of their pairs are known here: `locale`, then every pair of
//! `params` (`params=`, `params.` or `params[` all sort after `locale=` and before
//! `requestId=`), `requestId`, `salt`, `sender`, `senderKey`, `timestamp`. Only
//! `params` goes through the serializer that pairs what it writes (the parent module);
//! the rest is written straight into the JSON text and, in that order, into SHA-256,
//! with no key kept, sorted or searched for a repeat. The bytes are those
//! `serde_json` writes for the envelope struct, and the digest the one parsing them back
//! gives (`direct_tests.rs` checks both).

use serde::Serialize;

use super::super::limits::{over_budget, MAX_BODY};
use super::super::rules::reads_as_pair_after_ampersand;
use super::super::scan::{run_ascii, Out};
use super::super::walk::{Emit, Hashing};
use super::{write_str, Direct};
use crate::secret::PrivateKey;

/// The members of a request's envelope other than `params`, written in this order
/// before it (as the envelope struct declares them).
pub(crate) struct RequestHead<'a> {
    pub(crate) request_id: &'a str,
    pub(crate) sender: &'a str,
    pub(crate) locale: &'a str,
    pub(crate) timestamp: i64,
    pub(crate) salt: &'a str,
}

/// The signed text of the envelope `head` + `params`: its JSON text with
/// `,"signature":"<hex>"` before the final `}` (as `sign::attach_signature` splices it),
/// or `None` when the generic pass must judge it (a value of the head that rule R3
/// refuses, `params` that pass does not take, the limits): the caller then signs the
/// envelope struct as any other value.
pub(crate) fn sign_request_envelope<P: Serialize + ?Sized>(
    head: &RequestHead<'_>,
    params: &P,
    key: &PrivateKey,
) -> Option<Vec<u8>> {
    let (mut body, digest) = serialize_request_signed(head, params, key)?;
    // The text ends with the envelope's `}`, and the envelope has members.
    if body.pop() != Some(b'}') {
        return None;
    }
    body.extend_from_slice(b",\"signature\":\"");
    body.extend_from_slice(&crate::sign::digest_hex(&digest));
    body.extend_from_slice(b"\"}");
    Some(body)
}

/// The JSON text of the envelope `head` + `params` and the SHA-256 of its canonical
/// string with `key` (see [`sign_request_envelope`]).
pub(crate) fn serialize_request_signed<P: Serialize + ?Sized>(
    head: &RequestHead<'_>,
    params: &P,
    key: &PrivateKey,
) -> Option<(Vec<u8>, [u8; 32])> {
    let strings = [head.request_id, head.sender, head.locale, head.salt];
    // Each string scanned once for what needs judgement (a byte JSON escapes, `&`):
    // most have none and are written as they are.
    let mut plain = [false; 4];
    for (plain, v) in plain.iter_mut().zip(strings) {
        let (run, _) = run_ascii::<true>(v.as_bytes());
        *plain = run == v.len();
        if !*plain && v.contains('&') && reads_as_pair_after_ampersand(v.as_bytes()) {
            return None;
        }
    }
    let mut digits = [0u8; 20];
    let timestamp = decimal_i64(head.timestamp, &mut digits);
    let mut out = Vec::with_capacity(
        // The head's text, a small `params`, and the signature spliced in after (78
        // bytes): a query's envelope is written without growing the buffer.
        320 + strings.iter().map(|s| s.len()).sum::<usize>(),
    );
    let members: [(&[u8], &str, bool); 3] = [
        (b"{\"requestId\":", head.request_id, plain[0]),
        (b",\"sender\":", head.sender, plain[1]),
        (b",\"locale\":", head.locale, plain[2]),
    ];
    for (name, value, plain) in members {
        out.extend_from_slice(name);
        write_head_str(&mut out, value, plain)?;
    }
    out.extend_from_slice(b",\"timestamp\":");
    out.extend_from_slice(timestamp);
    out.extend_from_slice(b",\"salt\":");
    write_head_str(&mut out, head.salt, plain[3])?;
    out.extend_from_slice(b",\"params\":");
    let mut direct = Direct::take();
    direct.out = out;
    // `params` is written as a member of the envelope, which is open.
    direct.path.extend_from_slice(b"params");
    direct.depth = 1;
    let taken = params.serialize(&mut *direct).is_ok() && direct.depth == 1;
    let mut out = std::mem::take(&mut direct.out);
    out.push(b'}');
    // The head's pairs, as the parse counts them for the limit on expansion.
    let head_pairs = "locale=requestId=salt=sender=timestamp=".len()
        + strings.iter().map(|s| s.len()).sum::<usize>()
        + timestamp.len();
    let taken =
        taken && out.len() <= MAX_BODY && !over_budget(out.len(), direct.pairs.len() + head_pairs);
    let digest = taken.then(|| {
        let mut hashing = Hashing::new();
        hashing.put3(b"locale=", head.locale.as_bytes(), b"&");
        for &(start, end) in &direct.spans {
            let pair = direct.pairs.get(start as usize..end as usize);
            hashing.put3(pair.unwrap_or_default(), b"&", b"");
        }
        hashing.put3(b"requestId=", head.request_id.as_bytes(), b"&salt=");
        hashing.put3(head.salt.as_bytes(), b"&sender=", head.sender.as_bytes());
        hashing.put(b"&senderKey=");
        hashing.sender_key(key);
        hashing.put3(b"&timestamp=", timestamp, b"");
        hashing.finish()
    });
    direct.keep();
    Some((out, digest?))
}

/// A string of the head as JSON: between quotes as it is when `plain` (scanned: nothing
/// to escape), as `serde_json` writes it otherwise.
fn write_head_str(out: &mut Vec<u8>, value: &str, plain: bool) -> Option<()> {
    if plain {
        out.push(b'"');
        out.extend_from_slice(value.as_bytes());
        out.push(b'"');
        return Some(());
    }
    write_str(out, value).ok()
}

/// The two digits of every number below 100, back to back.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// The decimal text of `n` (as `serde_json` writes an integer), at the end of `digits`:
/// two digits at a time.
fn decimal_i64(n: i64, digits: &mut [u8; 20]) -> &[u8] {
    let mut rest = n.unsigned_abs();
    let mut at = digits.len();
    while rest >= 10 && at >= 2 {
        let pair = (rest % 100) as usize * 2;
        rest /= 100;
        at -= 2;
        if let (Some(d), Some(p)) = (digits.get_mut(at..at + 2), DIGIT_PAIRS.get(pair..pair + 2)) {
            d.copy_from_slice(p);
        }
    }
    // A last digit alone (or the only one). The last pair written was of a number from
    // 10 on: never a leading zero.
    if rest > 0 || at == digits.len() {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + (rest % 10) as u8;
        }
    }
    if n < 0 && at > 0 {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'-';
        }
    }
    digits.get(at..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::decimal_i64;

    #[test]
    fn decimals_are_serde_jsons() {
        let edges = [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            101,
            -100,
            1_650_533_105_687,
            i64::MAX,
            i64::MIN,
        ];
        let powers = (0..19).flat_map(|p| {
            let t = 10i64.pow(p);
            [t - 1, t, t + 1, -t, 7 * t]
        });
        for n in edges.into_iter().chain(powers) {
            let mut digits = [0u8; 20];
            assert_eq!(
                decimal_i64(n, &mut digits),
                serde_json::to_vec(&n).unwrap().as_slice(),
                "{n}"
            );
        }
    }
}
