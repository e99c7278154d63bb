"""What each projection of the live session must state, checked against what the session did.

The expected facts come from the scripted session (which commands ran, which failed and why,
which files were touched: ``session_script.Action``) and from the windows Hermes handed to vcc
(an event is due in the summary after compaction k once its call was in one of windows 1..k);
never from vcc's output. Each check yields ``Fact``s, one per statement, so a failure names every
wrong statement and the report can count right/total per compaction.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from live_run import LiveRun
from model_server import SUMMARY
from session_script import ASSERTION_TEXT, TIMES, Action

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hermes_integration"))
from summary_checks import (  # the shared checker, beside the integration suite
    HEADING_OF,
    POSITIONAL_REF,
    REF,
    Evidence,
    citation_problems,
    command_lines,
    projection_text,
    sections,
)

NO_SUMMARY_REQUEST = "no summary request reached the model"
OUTCOMES = "command outcomes in the order they happened"
BLOCKED = "Blocked holds exactly what the agent could not get past"
ERROR_NAMES = "error names of failed commands"
FILES = "files with their operations"
REFERENCES = "every reference resolves to a row it quotes"
ORIGINALS = "outcome references cite the command's output, not a copy"
KINDS = (NO_SUMMARY_REQUEST, OUTCOMES, BLOCKED, ERROR_NAMES, FILES, REFERENCES, ORIGINALS)
"""The kinds of fact checked after every compaction."""

UNRESOLVED_REF = re.compile(rf"{POSITIONAL_REF.pattern}|\[unsaved\]")
"""A reference that names no stored row: a window position, or one a merge could not keep."""
_OUTCOME = re.compile(
    rf"^(?P<status>[a-z][a-z ]*?)(?: \(|(?= {TIMES})| \[|$)(?:.*?{TIMES}(?P<times>\d+))?"
)


@dataclass(frozen=True)
class Fact:
    """One statement a projection must make; ``problem`` says how it does not (``None``: it
    does)."""

    kind: str
    statement: str
    problem: str | None = None

    @property
    def holds(self) -> bool:
        return self.problem is None


def covered_actions(run: LiveRun, upto: int) -> list[Action]:
    """The session's actions whose call Hermes handed to vcc in windows 1..``upto``."""
    calls = {
        str(call.get("id"))
        for projection in run.projections[:upto]
        for turn in projection.turns
        for call in turn.get("tool_calls") or []
    }
    return [a for a in run.session.actions if a.call_id in calls]


def facts_after(run: LiveRun, index: int, rows: Mapping[int, Mapping[str, Any]]) -> list[Fact]:
    """Every fact due after compaction ``index`` (1-based), checked on its projection."""
    projection = run.projections[index - 1]
    body = projection.body or ""
    covered = covered_actions(run, index)
    found = sections(body)
    return [
        *_no_summary_request(run),
        *_outcomes(covered, command_lines(found.get(HEADING_OF["commands"], []))),
        *_blocked(covered, found.get(HEADING_OF["blocked"], [])),
        *_error_names(covered, found.get(HEADING_OF["errorsSeen"], [])),
        *_files(covered, found.get(HEADING_OF["files"], [])),
        *_references(body, rows),
        *_originals(covered, command_lines(found.get(HEADING_OF["commands"], [])), rows),
    ]


def _no_summary_request(run: LiveRun) -> Iterator[Fact]:
    asked = run.model.of_kind(SUMMARY)
    problem = f"{len(asked)} summary request(s) reached the model" if asked else None
    yield Fact(NO_SUMMARY_REQUEST, "the model got no summary request", problem)


def _fenced(command: str) -> str:
    fence = "`" * (max((len(run) for run in re.findall(r"`+", command)), default=0) + 1)
    pad = " " if fence != "`" else ""
    return f"{fence}{pad}{command}{pad}{fence}"


def _line_for(command: str, lines: Sequence[str]) -> str | None:
    quoted = _fenced(command) + " — "
    return next((line for line in lines if quoted in line), None)


def _statuses(line: str) -> list[str]:
    """The outcome words of a command line, one per run (``TIMES``N repeats a word N times)."""
    outcomes = line.split(" — ", 1)[1]
    statuses: list[str] = []
    for part in outcomes.split(", then "):
        match = _OUTCOME.match(part.strip())
        word = match["status"] if match else part.strip()
        statuses += [word] * int(match["times"] or 1 if match else 1)
    return statuses


def _commands(covered: Sequence[Action]) -> dict[str, list[Action]]:
    by_command: dict[str, list[Action]] = {}
    for action in covered:
        if action.command is not None:
            by_command.setdefault(action.command, []).append(action)
    return by_command


def _outcomes(covered: Sequence[Action], lines: Sequence[str]) -> Iterator[Fact]:
    for command, runs in _commands(covered).items():
        expected = [str(a.outcome) for a in runs]
        statement = f"Commands Run: `{command}` {', then '.join(expected)}"
        line = _line_for(command, lines)
        if line is None:
            yield Fact(OUTCOMES, statement, "no Commands Run line for it")
            continue
        got = _statuses(line)
        yield Fact(OUTCOMES, statement, None if got == expected else f"the line says: {line}")


def _blocked(covered: Sequence[Action], lines: Sequence[str]) -> Iterator[Fact]:
    """A command the agent could not get past is listed: its last run failed, and it failed
    again after a retry or nothing the agent did afterwards worked. A failure fixed later, or one
    the agent moved on from, is not."""
    for command, runs in _commands(covered).items():
        if not any(a.outcome == "failed" for a in runs):
            continue
        last = runs[-1]
        later = [a for a in covered if a.index > last.index]
        stuck = last.outcome == "failed" and (
            (len(runs) > 1 and runs[-2].outcome == "failed")
            or not any(a.outcome != "failed" for a in later)
        )
        line = _line_for(command, lines)
        if stuck:
            statement = f"Blocked: `{command}` is listed (the agent could not get past it)"
            yield Fact(BLOCKED, statement, "not listed" if line is None else None)
        else:
            statement = f"Blocked: `{command}` is not listed (it was fixed or the agent moved on)"
            yield Fact(BLOCKED, statement, None if line is None else f"listed: {line}")


def _error_names(covered: Sequence[Action], lines: Sequence[str]) -> Iterator[Fact]:
    names = dict.fromkeys(a.error_name for a in covered if a.error_name)
    for name in names:
        named = re.compile(rf"(?:^- |[\s.]){re.escape(name)}(?::|\s|$)")
        listed = any(named.search(line) for line in lines)
        statement = f"Errors Seen: {name}"
        yield Fact(ERROR_NAMES, statement, None if listed else "not listed")


def _files(covered: Sequence[Action], lines: Sequence[str]) -> Iterator[Fact]:
    operations: dict[str, list[str]] = {}
    for action in covered:
        if action.file and action.operation:
            kept = operations.setdefault(action.file, [])
            if action.operation not in kept:
                kept.append(action.operation)
    for path, done in operations.items():
        statement = f"Relevant Files: {path} — {', '.join(done)}"
        line = next((line for line in lines if line.startswith(f"- {path} — ")), None)
        if line is None:
            yield Fact(FILES, statement, "no line for the file")
            continue
        missing = [operation for operation in done if operation not in line.split(" — ", 1)[1]]
        yield Fact(FILES, statement, f"the line says: {line}" if missing else None)


def _references(body: str, rows: Mapping[int, Mapping[str, Any]]) -> Iterator[Fact]:
    """One fact per line of the projection that cites rows: every ``[#N]`` names a stored row
    whose text the line quotes (the shared citation checker, line by line); ``UNRESOLVED_REF``s
    name no row at all."""
    evidence = Evidence(rows, _unredacted)
    heading = ""
    for line in projection_text(body).splitlines():
        if line.startswith("## "):
            heading = line
            continue
        if not (REF.search(line) or UNRESOLVED_REF.search(line)):
            continue
        problems = citation_problems(f"{heading}\n{line}", evidence)
        problems += [f"{ref} names no stored row" for ref in re.findall(r"\[unsaved\]", line)]
        yield Fact(REFERENCES, line, "; ".join(problems) if problems else None)


def _originals(
    covered: Sequence[Action], lines: Sequence[str], rows: Mapping[int, Mapping[str, Any]]
) -> Iterator[Fact]:
    """Each outcome on a command's line cites, with a ``[#N]``, the row where Hermes first stored
    that run's output (after compacting, Hermes stores kept rows again, pruned ones as stubs)."""
    first_stored: dict[str, int] = {}
    for row_id in sorted(rows):
        call_id = rows[row_id].get("tool_call_id")
        if call_id and call_id not in first_stored:
            first_stored[str(call_id)] = row_id
    originals = {first_stored.get(a.call_id) for a in covered}
    for command in _commands(covered):
        line = _line_for(command, lines)
        if line is None:
            continue
        problems = []
        for outcome in line.split(" — ", 1)[1].split(", then "):
            cited = [int(n) for n in REF.findall(outcome)]
            if not cited:
                problems.append(f"{outcome!r} cites no stored row")
            elif not set(cited) <= originals:
                problems.append(f"{outcome!r} cites a copy")
        statement = f"Commands Run: the outcomes of `{command}` cite its stored output"
        yield Fact(ORIGINALS, statement, "; ".join(problems) or None)


def _unredacted(text: str) -> str:
    """The session quotes no secrets, so Hermes's redaction leaves its text as it is."""
    return text


def fact_tally(facts: Sequence[Fact], kinds: Sequence[str]) -> dict[str, Any]:
    """A compaction's facts counted for a report: right and in all, by kind and together."""
    return {
        "facts": {
            kind: [
                sum(f.holds for f in facts if f.kind == kind),
                sum(f.kind == kind for f in facts),
            ]
            for kind in kinds
        },
        "facts_right": sum(f.holds for f in facts),
        "facts_total": len(facts),
    }


def resolved_references(body: str, rows: Mapping[int, Mapping[str, Any]]) -> tuple[int, int]:
    """(references on lines whose citations all hold, all references) of a projection."""
    good = {fact.statement for fact in _references(body, rows) if fact.holds}
    return _count(body, lambda line: line in good)


def _count(body: str, counts: Callable[[str], bool]) -> tuple[int, int]:
    resolved = total = 0
    for line in projection_text(body).splitlines():
        if line.startswith("## "):
            continue
        found = len(REF.findall(line)) + len(UNRESOLVED_REF.findall(line))
        total += found
        resolved += found if counts(line) else 0
    return resolved, total


@dataclass(frozen=True)
class LookupCheck:
    """Whether looking the cited failure up with ``session_search`` shows its output."""

    holds: bool
    detail: str


def lookup_check(run: LiveRun, rows: Mapping[int, Mapping[str, Any]]) -> LookupCheck:
    """The model looked up the ``[#N]`` the latest summary cites for the failed pytest run the way
    the summary says (``session_search``; where that is refused, the terminal command it offers);
    what came back must show the assertion pytest printed (``ASSERTION_TEXT``)."""
    lookup = run.session.lookup
    if lookup is None:
        reasons = "; ".join(run.session.problems) or "the model never looked a reference up"
        return LookupCheck(False, reasons)
    result = run.session.lookup_result or ""
    how = "through tool_call" if lookup.via_tool_call else "directly"
    if lookup.shell is not None:
        how += f", refused; then in a terminal: {lookup.shell}"
    called = ", ".join(f"{name}={value!r}" for name, value in lookup.arguments.items())
    cited = rows.get(lookup.row_id) or {}
    stored = (
        "the cited row holds the assertion"
        if ASSERTION_TEXT in str(cited.get("content") or "")
        else f"the cited row holds: {str(cited.get('content') or '')[:120]!r}"
    )
    spilled = " (result moved to a file, preview only)" if "<persisted-output>" in result else ""
    detail = (
        f"session_search({called}) {how}: {len(result)} chars"
        f"{spilled}; {stored}; cited on: {lookup.line}"
    )
    return LookupCheck(ASSERTION_TEXT in result, detail)


def projection_times_ms(run: LiveRun) -> list[float]:
    """The time of each projection, as the plugin logged it."""
    logged = re.findall(r"vcc: projected \d+ turns into \d+ chars in (\d+) ms", run.log)
    return [float(ms) for ms in logged]
