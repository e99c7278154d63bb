"""What one Hermes process of a story did: how the turn was run, how it ended, what it printed."""

from __future__ import annotations

from dataclasses import dataclass

_TAIL = 400
"""How much of each output a turn prints as (a failing test shows it)."""


@dataclass(frozen=True, repr=False)
class TurnRun:
    """One Hermes process of a story (``None`` exit code: it was ended for taking too long)."""

    mode: str
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float

    def __repr__(self) -> str:
        return (
            f"TurnRun({self.mode}, exit {self.exit_code}, {self.seconds:.1f} s, "
            f"stderr ends {self.stderr[-_TAIL:]!r}, stdout ends {self.stdout[-_TAIL:]!r})"
        )
