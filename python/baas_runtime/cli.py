"""``python -m baas_client sign [--verify | --attach]``: compute or check a message's
signature exactly as the runtime does, for chasing a ``12005 Invalid signature``. The
same behaviour and exit codes as ``baas-sign`` (the Rust tool).

Reads one JSON message on stdin; the key comes from the environment variable
``BAAS_PRIVATE_KEY`` (never from the command line) and is never printed: every message
has its text replaced by ``[redacted]``.

A body with ``null`` members is signed as the API document says, the nulls skipped, with one
warning line on stderr per skipped member; a ``null`` array element is refused (rule R2).

Exit codes: 0 signed / attached / the signature holds; 1 ``--verify``: the signature is
missing or wrong, or a re-cut rule refuses the body; 2 usage error, no key, an input
that is not a usable JSON object, or a body that is not to be signed.
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, Callable, Sequence, TextIO

from . import canonical
from .canonical import RECEIVED_NULL_MEMBERS, CanonicalError, Flattened
from .secret import PrivateKey
from .sign import attach_signature, check, constant_time_eq

__all__ = ["main"]

KEY_VARIABLE = "BAAS_PRIVATE_KEY"


def _contains_key(body: bytes, flat: Flattened, secret: str) -> bool:
    if not secret:
        return False
    return secret.encode("utf-8") in body or any(secret in pair for pair in flat.pairs)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    environ: dict[str, str] | None = None,
    prog: str = "python -m baas_client sign",
) -> int:
    """Runs the command; returns its exit code."""
    import os

    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Compute or check the signature of a BaaS message read on stdin; the "
        f"key is taken from the environment variable {KEY_VARIABLE}. By default prints the "
        "canonical string (key redacted), then the signature as the last line.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--verify",
        action="store_true",
        help="check the message's own `signature`: exit 0 when it holds, 1 otherwise (also "
        "when a re-cut rule refuses the body)",
    )
    mode.add_argument(
        "--attach", action="store_true", help="print the message with its signature added, as it is to be sent"
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else 2
    env = environ if environ is not None else dict(os.environ)
    secret = env.get(KEY_VARIABLE)
    if not secret:
        print(f"{prog}: set the private key in the environment variable {KEY_VARIABLE}", file=err)
        return 2
    key = PrivateKey(secret)

    def say(text: str) -> None:
        print(f"{prog}: {key.redact(text)}", file=err)

    source = stdin if stdin is not None else sys.stdin.buffer
    try:
        body = source.read()
    except OSError as e:
        say(f"cannot read stdin: {e}")
        return 2
    if args.verify:
        try:
            holding = check(body, key, null_members=RECEIVED_NULL_MEMBERS)
            if holding.holds():
                print(f"signature OK: {holding.expected}", file=out)
                return 0
        except CanonicalError:
            pass
    refusal: CanonicalError | None = None
    try:
        # A null member verifies (a received one reads as absent) and is signed by skipping
        # it, as the API document says, with a warning below; a null element is refused (R2).
        flat = canonical.parse(body, null_members=True)
    except CanonicalError as e:
        if e.kind != "ambiguous":
            say(f"the input is not a usable JSON object: {e}")
            return 2
        refusal = e
        try:
            flat = canonical.parse(body, unambiguous=False)
        except CanonicalError as again:
            say(f"the input is not a usable JSON object: {again}")
            return 2
    if flat.has_sender_key_pair:
        say(
            "warning: the input has a top-level `senderKey`; the key is never sent (the "
            "algorithm adds it), so this body does not sign like the message sent"
        )
    if args.attach:
        if flat.has_signature_key:
            say("the input already has a `signature`; remove it to sign again")
            return 2
        if flat.has_sender_key_pair or _contains_key(body, flat, key.expose()):
            say("the input contains the private key; the key is never sent, remove it")
            return 2
        if refusal is not None:
            say(f"not signed: {refusal}")
            return 2
        _warn_nulls(flat, say)
        signed = attach_signature(body, flat.signature_hex(key))
        print(signed.decode("utf-8"), file=out)
        return 0
    canonical_text = flat.canonical_string_redacted(key)
    if args.verify:
        if refusal is not None:
            say(
                f"REFUSED: {refusal}\n  (every verifier refuses this body, whatever its "
                f"signature)\n  canonical string (key redacted):\n{canonical_text}"
            )
            return 1
        expected = flat.signature_hex(key)
        received = flat.signature
        if received is not None and constant_time_eq(received, expected):
            print(f"signature OK: {expected}", file=out)
            return 0
        what = "signature MISSING" if received is None else f"signature MISMATCH\n  received: {received}"
        say(f"{what}\n  expected: {expected}\n  canonical string (key redacted):\n{canonical_text}")
        return 1
    if refusal is not None:
        say(f"not signed: {refusal}\n  canonical string (key redacted):\n{canonical_text}")
        return 2
    _warn_nulls(flat, say)
    print(f"{canonical_text}\n{flat.signature_hex(key)}", file=out)
    return 0


def _warn_nulls(flat: Flattened, say: Callable[[str], None]) -> None:
    """One line per null member of a body being signed: the document skips nulls, so the
    signature is the one of the body without them, but a partner chasing a ``12005``
    should know their JSON library wrote them (the same line as ``baas-sign``'s)."""
    for path in flat.null_paths:
        say(f"warning: the null member `{path}` is skipped (the API document leaves nulls out of the signed text)")
