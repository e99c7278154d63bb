"""Stand-in for ``agent.conversation_compression``: which user turns are real, and the check that
unwinds a compaction attempt a newer one has superseded. The calling attempt's generation rides a
context variable; the compressor names the attempt that last began summary work."""

from __future__ import annotations

import contextvars
from typing import Any

from agent.auxiliary_client import AuxiliaryExplicitCancellation

_SYNTHETIC_USER_PREFIXES = ("[CONTEXT COMPACTION",)

ATTEMPT_GENERATION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "attempt_generation", default=None
)
"""The generation of the attempt running on this context; ``None`` outside attempts."""


def _is_real_user_message(message: Any) -> bool:
    if not isinstance(message, dict) or message.get("role") != "user":
        return False
    content = message.get("content")
    text = content.strip() if isinstance(content, str) else ""
    return bool(text) and not text.startswith(_SYNTHETIC_USER_PREFIXES)


def _raise_if_stale_attempt(compressor: Any) -> None:
    generation = ATTEMPT_GENERATION.get()
    working = getattr(compressor, "_compression_working_attempt_generation", None)
    if generation is not None and working is not None and working != generation:
        raise AuxiliaryExplicitCancellation()
