"""Settling a confirmation whose outcome is unknown: one lookup of the application's
status query, read as :class:`Confirmed`, :class:`NotConfirmed` (safe to confirm again)
or :class:`StillUnknown`. Generated code says which query and which states (the spec's
``settled_by`` and ``awaiting_otp``); the clients' ``settle`` does the lookup and
:func:`read` reads it. Nothing here raises: every outcome is a value."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Generic, Sequence, TypeVar, Union

from .errors import BaasError, DecodeError
from .wire import Unknown, wire_text

S = TypeVar("S")


@dataclass(frozen=True)
class Confirmed(Generic[S]):
    """The application no longer waits for its OTP: the confirmation arrived (or the
    application ended otherwise: ``state`` says which). Do not confirm again; wait for a
    final state when ``is_final`` is false."""

    #: The state the query reported.
    state: S
    #: Whether that state is final.
    is_final: bool

    @property
    def safe_to_confirm_again(self) -> bool:
        return False


@dataclass(frozen=True)
class NotConfirmed(Generic[S]):
    """The application still waits for its OTP: the confirmation never arrived and
    nothing was confirmed, so confirming again is safe, as ``otp_rule`` says."""

    #: The state the query reported (one of the spec's ``awaiting_otp`` values).
    state: S
    #: When the OTP may be sent again (the spec's words).
    otp_rule: str

    @property
    def safe_to_confirm_again(self) -> bool:
        return True


@dataclass(frozen=True)
class StillUnknown:
    """The lookup did not tell: it failed, or its answer carried no state or one this SDK
    does not list. ``error`` says which; settle again later, and do not confirm again until
    a lookup says :class:`NotConfirmed`."""

    #: Why the outcome is still unknown (its ``outcome()`` and call as any error's).
    error: BaasError

    @property
    def safe_to_confirm_again(self) -> bool:
        return False


#: What one lookup says of a confirmation whose outcome was unknown.
Settlement = Union[Confirmed[S], NotConfirmed[S], StillUnknown]


def read(
    state: S | Unknown | None,
    awaiting_otp: Sequence[str],
    finals: Sequence[str],
    otp_rule: str,
    *,
    operation: str,
    request_id: str,
    attempts: int,
    raw: object,
) -> Settlement[S]:
    """The settlement a successful lookup's ``state`` says (``raw`` is the answer's data,
    quoted by the error when it says nothing)."""

    def unknown(why: str) -> StillUnknown:
        body = json.dumps(raw, default=str).encode()
        error = DecodeError(f"{why}, so the confirmation's outcome is still unknown", body=body)
        return StillUnknown(error.in_call(operation, request_id, attempts))

    if state is None:
        return unknown("the answer carries no state")
    if isinstance(state, Unknown):
        return unknown(f"the answer's state {state.wire} is not one this SDK lists")
    text = wire_text(state) if isinstance(state, (enum.Enum, str, int)) else str(state)
    if text in awaiting_otp:
        return NotConfirmed(state, otp_rule)
    return Confirmed(state, text in finals)
