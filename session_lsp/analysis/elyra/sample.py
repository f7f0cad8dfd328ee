"""A minimal Elyra session (`session-lsp new`) and the times and ids pi writes: apart from `editing.py`, which imports
the model, so that `session-lsp new` loads no more than the session it prints."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def millis(now: datetime) -> int:
    """Milliseconds since the epoch, exactly (no float): the same millisecond as `timestamp(now)`."""
    return (now - _EPOCH) // timedelta(milliseconds=1)


def timestamp(now: datetime) -> str:
    """`Date.prototype.toISOString()`: milliseconds and `Z`."""
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def uuid7(now: datetime) -> str:
    """A UUID of version 7, as pi makes session ids: the time in milliseconds, then bits derived from it."""
    from hashlib import sha256  # here: it loads OpenSSL, which a check never needs (the link pass imports this module)

    stamp = millis(now)
    rest = sha256(str(stamp).encode()).hexdigest()
    raw = f"{stamp & (2 ** 48 - 1):012x}7{rest[:3]}{'89ab'[int(rest[3], 16) % 4]}{rest[4:19]}"
    return f"{raw[:8]}-{raw[8:12]}-{raw[12:16]}-{raw[16:20]}-{raw[20:]}"


def sample(now: datetime) -> list[str]:
    """A minimal v3 session, as pi writes one: the header, a prompt and its answer (for `session-lsp new`)."""
    from hashlib import sha256  # here, as in `uuid7`

    session = uuid7(now)
    user, answer = (sha256(f"{session}/{n}".encode()).hexdigest()[:8] for n in (1, 2))
    later = [now + timedelta(seconds=n) for n in (1, 2)]
    cost = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
    records: list[dict[str, Any]] = [
        {"type": "session", "version": 3, "id": session, "timestamp": timestamp(now), "cwd": "/home/user/project"},
        {"type": "message", "id": user, "parentId": None, "timestamp": timestamp(later[0]),
         "message": {"role": "user", "content": "Say hello.", "timestamp": millis(later[0])}},
        {"type": "message", "id": answer, "parentId": user, "timestamp": timestamp(later[1]),
         "message": {"role": "assistant", "content": [{"type": "text", "text": "Hello."}],
                     "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
                     "usage": {"input": 10, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 12,
                               "cost": cost},
                     "stopReason": "stop", "timestamp": millis(later[1])}},
    ]
    return [msgspec.json.encode(record).decode() for record in records]
