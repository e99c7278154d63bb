"""A generated story: turns of user requests, each answered by the scripted model with a fixed
list of tool calls (``Step``s) and, at its end, large outputs until Hermes has compacted the
conversation often enough. What the steps meant to do is said once here (``Step.expect``); what
they did is read back from the session store (``record.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SUCCEEDED = "succeeded"
FAILED = "failed"
ANSWERED = "answered"
"""A non-zero exit Hermes labels as expected (``grep`` finding nothing, ``diff``, ``test``)."""
TIMED_OUT = "timed out"
REFUSED = "refused"
STARTED = "started"
"""A background job's start notice."""
KILLED = "killed"
NO_EXIT = "no exit code"
"""A result that names no exit status (a process log of a job that ended)."""
WORKED = "worked"
"""A tool other than a command did what it was asked."""
TOOL_ERROR = "tool error"
"""A tool other than a command answered with an error."""
JOB = "$JOB"
"""In a process call's arguments: the process id of the latest job the story started."""

RESUMED = "resumed"
"""A turn run as ``hermes chat --resume SID -q REQUEST`` (the first turn without ``--resume``)."""
INTERACTIVE = "interactive"
"""A turn typed into the interactive loop in a pseudo-terminal, followed by ``/compress FOCUS``."""


@dataclass(frozen=True)
class Step:
    """One tool call the model makes, and what it is meant to do."""

    tool: str
    """The tool by its plain name (``process``, ``todo``); the player calls it as offered."""
    arguments: Mapping[str, Any]
    expect: str
    exit_code: int | None = None
    """For a command: the exit status it is meant to end with (a job's: its process's)."""
    kept: str | None = None
    """A fact the step's result holds that every later projection must keep: ``commit`` (a
    hash it prints) or ``child`` (a delegated child's report)."""
    approval: bool = False
    """Whether Hermes may refuse the call when it runs without ``--yolo`` (0.22 refuses
    ``execute_code`` in single-query mode)."""


@dataclass(frozen=True)
class Turn:
    """One user request and the steps that answer it."""

    request: str
    steps: tuple[Step, ...]
    fillers: tuple[Step, ...]
    """Large outputs the model produces at the end until the turn has ``compactions``."""
    compactions: int
    """How many compactions the turn waits for before answering."""
    mode: str = RESUMED
    focus: str | None = None
    """For an interactive turn: the topic of the ``/compress`` that ends it."""

    @property
    def answer(self) -> str:
        return f"Finished: {self.request[:60]}"


@dataclass(frozen=True)
class Story:
    """A seeded story: its turns, and whether Hermes runs with ``--yolo`` (a story with refused
    calls does not)."""

    seed: int
    turns: tuple[Turn, ...]
    yolo: bool
    episodes: tuple[str, ...] = ()
    """The catalogue episodes the story holds, by name."""
    child_goals: Mapping[str, str] = field(default_factory=dict)
    """Each delegated goal's marker and the report its child gives."""

    def steps(self) -> list[Step]:
        return [step for turn in self.turns for step in (*turn.steps, *turn.fillers)]
