"""The record of a story, read from the session store alone (never from vcc's code or output):
every call the parent session made, with the outcome its first stored result states.

A command's outcome is its result's ``exit_code``; Hermes's refusals (``status: blocked``, an
error that begins ``BLOCKED``) are refusals, whatever exit code they carry; ``[Command timed out``
is a timeout; a non-zero exit whose ``exit_code_meaning`` says it is "not an error" is an answer,
not a failure (Hermes's hedge "often normal", which it gives a merge conflict, is no such label).
A result moved to a file (``<persisted-output>``) is read from that file. A background job is one
command: its start notice, then what each process call on its process id reported, as the
process's status (``exited`` with its exit code, ``killed``).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hermes_integration"))
from story import (
    ANSWERED,
    FAILED,
    KILLED,
    NO_EXIT,
    REFUSED,
    STARTED,
    SUCCEEDED,
    TIMED_OUT,
    TOOL_ERROR,
    WORKED,
)
from summary_checks import BRIDGE, PROCESS_TOOLS  # the shared checker's names of Hermes's tools

RUNNING = "running"
COMMAND_TOOLS = ("terminal", "execute_code")
_JOB_ENDS = (SUCCEEDED, FAILED, KILLED, ANSWERED, TIMED_OUT, TOOL_ERROR, WORKED)
"""The outcomes that say a background job ended."""
_SAVED_TO = re.compile(r"Full output saved to: (\S+)")
_ERROR_NAME = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception))\b")


@dataclass(frozen=True)
class Outcome:
    """What one result says happened."""

    kind: str
    exit_code: int | None
    row: int
    """The row the result was first stored in."""
    text: str
    """The output (and error text) the result holds."""
    persisted: bool = False
    """Whether Hermes moved the output to a file (the window holds a preview only)."""


@dataclass(frozen=True)
class Call:
    """One tool call of the parent session, unwrapped from ``tool_call`` where it was bridged."""

    call_id: str
    row: int
    tool: str
    arguments: Mapping[str, Any]
    result: Outcome | None


@dataclass(frozen=True)
class Command:
    """A command as Commands Run lists it: a foreground command or code by its text (all its
    runs), or a background job (its start, then its process calls)."""

    subject: str
    runs: tuple[Call, ...]
    job: str | None = None

    @property
    def outcomes(self) -> list[Outcome]:
        """What each run returned; a job's up to the first report that it ended (a job ends
        once: what is read of it afterwards tells of that end again, not of another run)."""
        outcomes = [run.result for run in self.runs if run.result is not None]
        if self.job is None:
            return outcomes
        end = next((i for i, o in enumerate(outcomes) if o.kind in _JOB_ENDS), len(outcomes))
        return outcomes[: end + 1]


# A directory the shell reads as written, needing no quotes (a leading `~` is the home directory).
_PLAIN_DIRECTORY = re.compile(r"[\w@%+=:,./~-]+", re.ASCII)


def _as_run(arguments: Mapping[str, Any]) -> str:
    """A command call's line as it ran: its code, or its command, changing first to the working
    directory it was given (``cd DIR && command``, DIR quoted for the shell when it must be)."""
    text = str(arguments.get("command") or arguments.get("code") or "")
    workdir = arguments.get("workdir")
    if not isinstance(arguments.get("command"), str) or not isinstance(workdir, str) or not workdir:
        return text
    directory = workdir if _PLAIN_DIRECTORY.fullmatch(workdir) else shlex.quote(workdir)
    return f"cd {directory} && {text}"


class Record:
    """The parent session's calls and results, read from the stored rows."""

    def __repr__(self) -> str:
        return f"Record(session {self.session}, {len(self.calls)} calls)"

    def __init__(self, rows: Mapping[int, Mapping[str, Any]], session: str, spill: Path) -> None:
        self.rows = rows
        self.session = session
        self._spill = spill
        first: dict[str, int] = {}
        for row_id in sorted(rows):
            row = rows[row_id]
            if row.get("role") == "tool" and row.get("session_id") == session:
                first.setdefault(str(row.get("tool_call_id")), row_id)
        self.calls: dict[str, Call] = {}
        for row_id in sorted(rows):
            row = rows[row_id]
            if row.get("session_id") != session or row.get("role") != "assistant":
                continue
            for raw in row.get("tool_calls") or []:
                call_id = str(raw.get("id"))
                if call_id in self.calls:
                    continue  # Hermes stored the call again after compacting
                tool, arguments = unbridged_call(raw.get("function") or {})
                result_row = first.get(call_id)
                outcome = None if result_row is None else self._outcome(result_row, tool, arguments)
                self.calls[call_id] = Call(call_id, row_id, tool, arguments, outcome)

    def _outcome(self, row_id: int, tool: str, arguments: Mapping[str, Any]) -> Outcome:
        text = str(self.rows[row_id].get("content") or "")
        persisted = False
        saved = _SAVED_TO.search(text) if text.startswith("<persisted-output>") else None
        if saved is not None and (self._spill / Path(saved[1]).name).is_file():
            text = (self._spill / Path(saved[1]).name).read_text(encoding="utf-8")
            persisted = True
        result = _json_prefix(text)
        words = "\n".join(str(result.get(k) or "") for k in ("output", "error", "output_preview"))
        kind, exit_code = _kind(result, tool, arguments)
        return Outcome(kind, exit_code, row_id, words or text, persisted)

    def commands(self, calls: set[str] | None = None) -> list[Command]:
        """Every command among ``calls`` (all when ``None``), in the order each first ran."""
        chosen = [c for c in self.calls.values() if calls is None or c.call_id in calls]
        jobs: dict[str, str] = {}
        for call in self.calls.values():
            if call.tool == "terminal" and call.arguments.get("background") and call.result:
                found = _json_prefix(str(self.rows[call.result.row].get("content") or ""))
                if isinstance(found.get("session_id"), str):
                    jobs[found["session_id"]] = call.call_id
        by_key: dict[str, list[Call]] = {}
        subjects: dict[str, tuple[str, str | None]] = {}
        for call in chosen:
            if call.tool in PROCESS_TOOLS:
                job = str(call.arguments.get("session_id"))
                start = jobs.get(job)
                if start is None:
                    continue
                key = f"job {job}"
                subjects.setdefault(key, (_as_run(self.calls[start].arguments), job))
            elif call.tool in COMMAND_TOOLS:
                subject = _as_run(call.arguments)
                job = next((j for j, start in jobs.items() if start == call.call_id), None)
                key = f"job {job}" if job else f"cmd {subject}"
                subjects.setdefault(key, (subject, job))
            else:
                continue
            by_key.setdefault(key, []).append(call)
        return [
            Command(subjects[key][0], tuple(runs), subjects[key][1]) for key, runs in by_key.items()
        ]

    def user_rows(self) -> dict[int, str]:
        """The parent session's user rows, by id."""
        return {
            row_id: str(row.get("content") or "")
            for row_id, row in self.rows.items()
            if row.get("session_id") == self.session and row.get("role") == "user"
        }

    def error_names(self, calls: set[str]) -> list[str]:
        """The exception names the failed commands among ``calls`` printed."""
        names: dict[str, None] = {}
        for command in self.commands(calls):
            for outcome in command.outcomes:
                if outcome.kind == FAILED:
                    names.update(dict.fromkeys(_ERROR_NAME.findall(outcome.text)))
        return list(names)


def unbridged_call(function: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """The tool and arguments of a call; a ``tool_call`` bridging one call, as that call."""
    name = str(function.get("name"))
    try:
        arguments = json.loads(function.get("arguments") or "{}")
    except ValueError:
        arguments = {}
    calls = arguments.get("calls") if name == BRIDGE and isinstance(arguments, dict) else None
    if isinstance(calls, list) and len(calls) == 1 and isinstance(calls[0], dict):
        inner = calls[0]
        return str(inner.get("name")), dict(inner.get("arguments") or {})
    return name, arguments if isinstance(arguments, dict) else {}


def _json_prefix(text: str) -> dict[str, Any]:
    """The JSON object a result begins with (Hermes may append notes after it); ``{}`` if none."""
    try:
        found, _ = json.JSONDecoder().raw_decode(text.lstrip())
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _kind(
    result: Mapping[str, Any], tool: str, arguments: Mapping[str, Any]
) -> tuple[str, int | None]:
    exit_code = result.get("exit_code")
    exit_code = exit_code if isinstance(exit_code, int) else None
    error = str(result.get("error") or "")
    if result.get("status") == "blocked" or error.startswith("BLOCKED"):
        return REFUSED, None
    if tool not in COMMAND_TOOLS and tool not in PROCESS_TOOLS:
        failed = bool(error) or result.get("success") is False or result.get("status") == "error"
        return (TOOL_ERROR if failed else WORKED), None
    if tool in PROCESS_TOOLS:
        if result.get("status") == "killed" or result.get("completion_reason") == "killed":
            return KILLED, exit_code
        if result.get("status") == "exited":
            if exit_code is None:
                return NO_EXIT, None  # a log says the process ended, not how
            return (SUCCEEDED if exit_code == 0 else FAILED), exit_code
        return RUNNING, None
    if tool == "terminal" and arguments.get("background"):
        return STARTED, None
    if str(result.get("output") or "").startswith("[Command timed out"):
        return TIMED_OUT, exit_code
    if exit_code is None:
        return NO_EXIT, None
    if exit_code != 0 and "not an error" in str(result.get("exit_code_meaning") or ""):
        return ANSWERED, exit_code
    return (SUCCEEDED if exit_code == 0 else FAILED), exit_code
