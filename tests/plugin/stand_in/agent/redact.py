"""Stand-in for ``agent.redact``: masks API-key-shaped tokens, as Hermes's redactor does."""

from __future__ import annotations

import re

_SECRET = re.compile(r"\bsk-[A-Za-z0-9]{8,}")


def redact_sensitive_text(text: str, **_options: object) -> str:
    """``text`` with every ``sk-...`` token replaced by ``sk-***``."""
    return _SECRET.sub("sk-***", text)
