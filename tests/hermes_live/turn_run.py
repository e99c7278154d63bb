"""What one Hermes process of a story did: how the turn was run, how it ended, what it printed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnRun:
    """One Hermes process of a story (``None`` exit code: it was ended for taking too long)."""

    mode: str
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
