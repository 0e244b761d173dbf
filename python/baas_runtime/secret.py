"""The partner's private key: never shown by ``repr``, ``str``, logging or pickling."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

__all__ = ["PrivateKey", "REDACTED"]

#: What is shown in place of the key.
REDACTED = "[redacted]"


class PrivateKey:
    """The key that signs and verifies messages (the ``senderKey`` of the algorithm).

    ``repr``, ``str`` and ``format`` show ``[redacted]``; the key cannot be pickled or
    copied into a log by accident. :meth:`expose` gives the text to the signer.
    """

    __slots__ = ("_secret",)

    _secret: str

    def __init__(self, secret: str) -> None:
        if not isinstance(secret, str):
            raise TypeError("a PrivateKey is built from text")
        object.__setattr__(self, "_secret", secret)

    @classmethod
    def from_env(cls, name: str = "BAAS_PRIVATE_KEY", *, remove: bool = False) -> PrivateKey | None:
        """The key in the environment variable ``name``, or ``None`` when it is unset or
        empty (an empty key is a configuration mistake, never a key). It stays in the
        process environment (children inherit it) unless ``remove``."""
        value = os.environ.get(name)
        if not value:
            return None
        if remove:
            del os.environ[name]
        return cls(value)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> PrivateKey:
        """The key in a file (one trailing newline is dropped); nothing is left in the
        environment."""
        text = Path(path).read_text(encoding="utf-8")
        if text.endswith("\r\n"):
            text = text[:-2]
        elif text.endswith("\n"):
            text = text[:-1]
        return cls(text)

    def expose(self) -> str:
        """The key's text, for the signer only."""
        return self._secret

    def is_empty(self) -> bool:
        return not self._secret

    def __repr__(self) -> str:
        return f"PrivateKey({REDACTED})"

    def __str__(self) -> str:
        return REDACTED

    def __format__(self, spec: str) -> str:
        return REDACTED

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PrivateKey):
            return NotImplemented
        import hmac

        return hmac.compare_digest(self._secret.encode("utf-8"), other._secret.encode("utf-8"))

    def __hash__(self) -> int:
        return hash(("PrivateKey", len(self._secret)))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("a PrivateKey cannot be changed")

    def __reduce__(self) -> NoReturn:
        raise TypeError("a PrivateKey is not pickled (it would write the key out)")

    def redact(self, text: str) -> str:
        """``text`` with every occurrence of the key replaced by ``[redacted]``."""
        return text.replace(self._secret, REDACTED) if self._secret else text
