"""What each projection of a generated story must state, checked against the session store
(``record.py``) and the windows Hermes handed to vcc: a call is due in the projection after
compaction k once it was in one of windows 1..k. Every check yields ``facts.Fact``s, one per
statement, so a failure names each wrong line and the scorecard counts right/total.

The projection is read with the shared readers of ``summary_checks.py`` (sections, shared
command lines, the root note) and the checks of ``facts.py`` where they fit (summary requests,
references, error names); the rules that decide what is expected are the store's, never vcc's.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from facts import NO_SUMMARY_REQUEST, REFERENCES, Fact, _no_summary_request, _references
from live_run import CONTEXT_LENGTH, Projection
from model_server import TURN
from record import BRIDGE, RUNNING, Command, Outcome, Record, unbridged_call
from story import (
    ANSWERED,
    FAILED,
    KILLED,
    NO_EXIT,
    REFUSED,
    STARTED,
    SUCCEEDED,
    TIMED_OUT,
    WORKED,
)
from story_run import StoryRun
from summary_checks import (
    _CALL_ENTRY,
    HEADING_OF,
    POSITIONAL_REF,
    command_lines,
    projection_text,
    sections,
)

OUTCOMES = "each command's outcome history and final outcome"
BLOCKED = "Blocked holds exactly the refused calls and the work that still failed when last tried"
KEPT = "a delegated child's report and a commit's hash are kept"
FOCUS = "after /compress FOCUS no line matching it is left out while others are shown"
GOAL = "Goal holds every request no longer in the live context"
POSITIONAL = "no [tN] or [unsaved] for a stored row"
OMISSIONS = "listed commands plus the omission note's count are the commands run"
ERROR_NAMES = "error names printed by failed commands are listed"
KINDS = (
    NO_SUMMARY_REQUEST,
    OUTCOMES,
    BLOCKED,
    KEPT,
    FOCUS,
    GOAL,
    REFERENCES,
    POSITIONAL,
    OMISSIONS,
    ERROR_NAMES,
)
"""The kinds of fact checked after every compaction."""

_WORDS = {
    "succeeded": SUCCEEDED,
    "failed": FAILED,
    "no match": ANSWERED,
    "differences found": ANSWERED,
    "false": ANSWERED,
    "timed out": TIMED_OUT,
    "blocked": REFUSED,
    "pending approval": REFUSED,
    "started in background": STARTED,
    "killed": KILLED,
    "still running": RUNNING,
    "ran": NO_EXIT,
}
_RELAYED = "relayed"
"""``ran (exit 0 of tail)``: the exit code of a program that passed on the work's output."""
_RUN = re.compile(
    r"^(?P<words>[a-z][a-z ]*?)"
    r"(?: \((?:exit (?P<exit>-?\d+)(?: of (?P<of>[^\s()]+))?|no exit code|error)\))?"
    r"(?: but printed an error)?(?: \u00d7(?P<times>\d+))?(?: \[(?:#\d+|t\d+|unsaved)\])?"
    r"(?:, last \[(?:#\d+|t\d+|unsaved)\])?$"
)
_SKIPPED = re.compile(r"^\u2026 (\d+) more$")
_OMITTED = re.compile(r"^\((\d+) older [a-z ]+ omitted")
_GOAL_LINE = re.compile(r"^\[(?:#\d+|t\d+|unsaved)\] (.*)$")
"""A Goal line: a request quoted whole, or with its middle or its end left out (``…``)."""
_RESTATED = re.compile(r"^\[STILL IN PROGRESS[^\]\n]*\]\s*")
"""How 0.22 restates an unfinished request after a compaction, ahead of its stored words."""
_HASH = re.compile(r"^[0-9a-f]{40}$")
FILE_TOOLS = ("read_file", "write_file", "patch", "search_files")


@dataclass(frozen=True)
class Listed:
    """A Commands Run entry as the projection states it."""

    line: str
    subject: str
    job: str | None
    runs: list[tuple[str, int | None, int]] | None
    """(kind, exit code, count) per run, with ``("skipped", None, n)`` for ``… n more``;
    ``None`` when the outcome words are unreadable."""


def window_calls(run: StoryRun, upto: int) -> set[str]:
    """The ids of the calls Hermes handed to vcc in windows 1..``upto``."""
    return {
        str(call.get("id"))
        for projection in run.projections[:upto]
        for turn in projection.turns
        for call in turn.get("tool_calls") or []
    }


def window_texts(run: StoryRun, upto: int) -> list[str]:
    """The text of every message of windows 1..``upto``."""
    return [
        str(turn.get("content") or "")
        for projection in run.projections[:upto]
        for turn in projection.turns
    ]


@dataclass(frozen=True, repr=False)
class CheckedStory:
    """A played story, its record and the facts due after each of its compactions, checked
    once for the tests and the scorecard."""

    run: StoryRun
    record: Record
    facts: tuple[tuple[Fact, ...], ...]
    """The facts after compaction 1, 2, …"""

    def __repr__(self) -> str:
        wrong = sum(not fact.holds for facts in self.facts for fact in facts)
        return f"CheckedStory({self.run!r}, {wrong} wrong facts)"


def check_story(run: StoryRun, record: Record) -> CheckedStory:
    """Checks every projection of ``run``."""
    facts = tuple(tuple(facts_after(run, record, i)) for i in range(1, len(run.projections) + 1))
    return CheckedStory(run, record, facts)


def facts_after(run: StoryRun, record: Record, index: int) -> list[Fact]:
    """Every fact due after compaction ``index`` (1-based), checked on its projection."""
    projection = run.projections[index - 1]
    body = projection.body or ""
    found = sections(projection_text(body))
    covered = window_calls(run, index)
    commands = record.commands(covered)
    listed = [
        _listed(line)
        for line in command_lines(found.get(HEADING_OF["commands"], []))
        if line.startswith("- ")
    ]
    return [
        *_no_summary_request(run),
        *_outcomes(commands, listed, found.get(HEADING_OF["commands"], [])),
        *_blocked(record, covered, found.get(HEADING_OF["blocked"], [])),
        *_kept(run, record, index, projection_text(body)),
        *_focus(projection, record, covered, found),
        *_goal(run, record, index, found.get(HEADING_OF["requests"], [])),
        *_references(body, unbridged(record.rows)),
        *_positional(projection, record, body),
        *_omissions(commands, listed, found.get(HEADING_OF["commands"], [])),
        *_error_names(record, covered, found.get(HEADING_OF["errorsSeen"], [])),
    ]


def _listed(line: str) -> Listed:
    match = _CALL_ENTRY.match(line)
    if match is None:
        return Listed(line, "", None, None)
    job = match["job"].strip()[5:-1] if match["job"] else None
    return Listed(line, match["subject"] or "", job, _runs(match["outcomes"]))


def _runs(text: str) -> list[tuple[str, int | None, int]] | None:
    runs: list[tuple[str, int | None, int]] = []
    for part in text.split(", then "):
        part = part.strip()
        if skipped := _SKIPPED.match(part):
            runs.append(("skipped", None, int(skipped[1])))
            continue
        match = _RUN.match(part)
        if match is None or match["words"] not in _WORDS:
            return None
        exit_code = int(match["exit"]) if match["exit"] else None
        kind = _RELAYED if match["of"] else _WORDS[match["words"]]
        runs.append((kind, exit_code, int(match["times"] or 1)))
    return runs


def _shows(subject: str, command: str) -> bool:
    """Whether a line's subject shows ``command``: whole, or with runs of its words left out,
    each shown as ``…`` (``git init … main && git … && git …``): the pieces between the gaps are
    in the command in that order, the first at its start and the last at its end."""
    if subject == command:
        return True
    if "\u2026" not in subject:
        return False
    pieces = [piece.strip() for piece in subject.split("\u2026")]
    head, tail = pieces[0], pieces[-1]
    if not (command.startswith(head) and command.endswith(tail)):
        return False
    at = len(head)
    for piece in pieces[1:-1]:
        found = command.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return at <= len(command) - len(tail)


def _may_show(entry: Listed, command: Command) -> bool:
    """Whether a Commands Run entry may be the line of ``command``: a job's by its process id,
    any other by its subject."""
    if command.job is not None or entry.job is not None:
        return entry.job == command.job
    return _shows(entry.subject, command.subject)


def _assign(commands: Sequence[Command], listed: Sequence[Listed]) -> dict[int, Listed]:
    """Each command's entry, by the command's index, one entry per command: an entry showing a
    command whole first, then a shortened one that may show it (several commands may shorten
    alike, told apart by a fingerprint the oracle does not compute), preferring one whose
    outcomes agree with the command's."""
    assigned: dict[int, Listed] = {}
    taken: set[int] = set()
    for index, command in enumerate(commands):
        for number, entry in enumerate(listed):
            if (
                number not in taken
                and _may_show(entry, command)
                and (command.job is not None or entry.subject == command.subject)
            ):
                assigned[index] = entry
                taken.add(number)
                break
    for index, command in enumerate(commands):
        if index in assigned:
            continue
        free = [(n, e) for n, e in enumerate(listed) if n not in taken and _may_show(e, command)]
        agreeing = [(n, e) for n, e in free if _history_problem(command, e) is None]
        if chosen := (agreeing or free)[:1]:
            assigned[index] = chosen[0][1]
            taken.add(chosen[0][0])
    return assigned


def _expected(outcomes: Sequence[Outcome]) -> list[tuple[Outcome, int]]:
    """The outcomes grouped into runs of the same kind and exit code."""
    groups: list[tuple[Outcome, int]] = []
    for outcome in outcomes:
        last = groups[-1][0] if groups else None
        if last is not None and (last.kind, last.exit_code) == (outcome.kind, outcome.exit_code):
            groups[-1] = (last, groups[-1][1] + 1)
        else:
            groups.append((outcome, 1))
    return groups


def _agrees(expected: Outcome, kind: str, exit_code: int | None) -> bool:
    """Whether stated words say what a stored outcome says (a refusal's exit code aside; a
    result moved to a file may be stated without its exit code, which its preview lacks)."""
    if expected.persisted and kind == NO_EXIT:
        return True
    if kind == _RELAYED:
        # The store holds the exit code the line had; the work's own status is not stated.
        return expected.kind == SUCCEEDED and exit_code == expected.exit_code
    if kind != expected.kind:
        return False
    if kind == REFUSED or exit_code is None or expected.exit_code is None:
        return True
    return exit_code == expected.exit_code


def _history_problem(command: Command, entry: Listed) -> str | None:
    if entry.runs is None:
        return f"unreadable outcomes: {entry.line}"
    expected = _expected(command.outcomes)
    stated = entry.runs
    gap = next((i for i, run in enumerate(stated) if run[0] == "skipped"), None)
    if gap is None:
        pairs = list(zip(expected, stated, strict=False)) if len(stated) == len(expected) else None
    else:
        head, tail = stated[:gap], stated[gap + 1 :]
        fits = len(head) + stated[gap][2] + len(tail) == len(expected)
        pairs = (
            list(zip(expected[: len(head)], head, strict=True))
            + list(zip(expected[len(expected) - len(tail) :], tail, strict=True))
            if fits
            else None
        )
    if pairs is None or not all(
        _agrees(outcome, kind, code) and count == times
        for (outcome, count), (kind, code, times) in pairs
    ):
        said = ", then ".join(f"{o.kind} ({o.exit_code}) x{n}" for o, n in expected)
        return f"the store says {said}; the line says: {entry.line}"
    return None


def _omitted(lines: Sequence[str]) -> int:
    return sum(int(m[1]) for line in lines if (m := _OMITTED.match(line)))


def _outcomes(
    commands: Sequence[Command], listed: Sequence[Listed], lines: Sequence[str]
) -> Iterator[Fact]:
    omitted = _omitted(lines)
    assigned = _assign(commands, listed)
    for index, command in enumerate(commands):
        statement = f"Commands Run: `{command.subject}`" + (
            f" (job {command.job})" if command.job else ""
        )
        entry = assigned.get(index)
        if entry is None:
            yield Fact(OUTCOMES, statement, None if omitted else "no Commands Run line for it")
            continue
        yield Fact(OUTCOMES, statement, _history_problem(command, entry))


def _succeeded(outcome: Outcome | None) -> bool:
    return outcome is not None and outcome.kind in (SUCCEEDED, ANSWERED, WORKED)


def _decisive(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """The outcomes that say how a run ended (not a job's start, a log without its exit code, a
    job still running)."""
    return [o for o in outcomes if o.kind not in (STARTED, NO_EXIT, RUNNING)]


_STEP_END = frozenset(("&&", "||", ";", "|", "&"))
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
# The options whose value names an item (``--region=south``), as vcc's ``ITEM_OPTIONS`` lists
# them (HOW-IT-WORKS, Blocked); any other is a setting (``--timeout=120``, ``--tb=short``).
_ITEM_OPTION = re.compile(
    r"^--(?:region|zone|env|environment|stage|target|project|service|host|cluster|namespace"
    r"|shard|tenant|account|branch|package|app|site)=\S+$"
)


def _work(command: Command) -> str:
    """The piece of work a command is at, as HOW-IT-WORKS defines it for Blocked: its program,
    the first word after it that is not an option (``python3 scripts/report.py``,
    ``git apply``, ``python pytest``) and the options that name an item (``--region=south``),
    read past ``cd DIR &&`` steps and ``NAME=value`` words;
    code run by ``execute_code`` is its own work."""
    if command.runs and command.runs[0].tool == "execute_code":
        return f"code {command.subject}"
    try:
        words = shlex.split(command.subject.replace(";", " ; "))
    except ValueError:
        words = command.subject.split()
    steps: list[list[str]] = [[]]
    for word in words:
        if word in _STEP_END:
            steps.append([])
        else:
            steps[-1].append(word)
    step = next((s for s in steps if s and s[0] != "cd"), [])
    while step and _ASSIGNMENT.match(step[0]):
        step = step[1:]
    if not step:
        return command.subject
    subject = next((w for w in step[1:] if not w.startswith("-") and "=" not in w), None)
    items = [w for w in step[1:] if _ITEM_OPTION.match(w)]
    return " ".join([step[0], *([] if subject is None else [subject]), *items])


def _blocked(record: Record, covered: set[str], lines: Sequence[str]) -> Iterator[Fact]:
    """Listed (HOW-IT-WORKS, Blocked): each command whose latest decisive result was a refusal,
    and work that still failed when last tried: the command's last decisive run is the last
    attempt at its work (the same program and subject, details aside), it failed or timed out,
    and it came after a failed attempt at that work or nothing at all succeeded after it. A
    failure the agent moved on from, or whose work a later attempt got done, is not listed. A
    background job is one attempt, however many process calls reported its end, and its line is
    told by its process id. Nothing else is listed."""
    calls = [c for c in record.calls.values() if c.call_id in covered]
    commands = record.commands(covered)
    attempts: dict[str, list[Outcome]] = {}
    for command in commands:
        decisive = _decisive(command.outcomes)
        runs = decisive[-1:] if command.job is not None else decisive
        attempts.setdefault(_work(command), []).extend(runs)
    for work in attempts.values():
        work.sort(key=lambda outcome: outcome.row)
    trouble = (FAILED, TIMED_OUT)
    expected: list[Command] = []
    for command in commands:
        decisive = _decisive(command.outcomes)
        work = attempts[_work(command)]
        if not decisive or work[-1] is not decisive[-1]:
            continue  # nothing decided, or a later attempt at the work decides it
        last = decisive[-1]
        retried = len(work) > 1 and work[-2].kind in trouble
        later = [c for c in calls if c.result is not None and c.result.row > last.row]
        moved_on = any(_succeeded(c.result) for c in later)
        if last.kind == REFUSED or (last.kind in trouble and (retried or not moved_on)):
            expected.append(command)
    entries = [(line, _CALL_ENTRY.match(line)) for line in lines if line.startswith("- ")]
    named = [(line, match) for line, match in entries if match]

    def names(match: re.Match[str], command: Command) -> bool:
        job = match["job"].strip()[5:-1] if match["job"] else None
        if command.job is not None or job is not None:
            return job == command.job
        return _shows(match["subject"] or "", command.subject)

    for command in expected:
        statement = f"Blocked: `{command.subject}` is listed"
        found = any(names(match, command) for _, match in named)
        yield Fact(BLOCKED, statement, None if found or _omitted(lines) else "not listed")
    for line, match in named:
        if not any(names(match, command) for command in expected):
            yield Fact(BLOCKED, f"Blocked lists only what it must: {line}", "listed")


def _kept(run: StoryRun, record: Record, index: int, text: str) -> Iterator[Fact]:
    """A commit's hash, once its command was in a window; a child's report, once the row
    carrying it back (the delegate call's result, or 0.19's later delegation message) was."""
    covered = window_calls(run, index)
    for call in record.calls.values():
        if call.result is None or call.call_id not in covered:
            continue
        if "git log --format=%H" in str(call.arguments.get("command") or ""):
            commit = call.result.text.strip().splitlines()[-1:]
            if commit and _HASH.match(commit[0]):
                statement = f"the commit hash {commit[0]} is kept"
                held = commit[0][:7] in text
                yield Fact(KEPT, statement, None if held else "not in the projection")
    texts = window_texts(run, index)
    for report in run.story.child_goals.values():
        if any(report in t for t in texts) or any(
            report in str(record.rows[c.result.row].get("content") or "")
            for c in record.calls.values()
            if c.tool == "delegate_task" and c.result and c.call_id in covered
        ):
            held = report in text or report.rstrip(".") in text
            yield Fact(KEPT, f"the child's report {report!r} is kept", None if held else "lost")


def _focus(
    projection: Projection, record: Record, covered: set[str], found: Mapping[str, list[str]]
) -> Iterator[Fact]:
    """After ``/compress FOCUS``, matching lines are kept first wherever a cap or the budget
    forces a choice, and never change the order of what is shown (HOW-IT-WORKS, Focus): where
    Commands Run or Relevant Files left entries out, every command or file path that names the
    focus is still listed."""
    focus = projection.request.get("params", {}).get("focus")
    if not focus:
        return
    word = str(focus).lower()
    commands_lines = found.get(HEADING_OF["commands"], [])
    if _omitted(commands_lines):
        commands = record.commands(covered)
        listed = [_listed(line) for line in command_lines(commands_lines) if line.startswith("- ")]
        assigned = _assign(commands, listed)
        for index, command in enumerate(commands):
            if word in command.subject.lower():
                statement = f"Commands Run keeps `{command.subject}`, which names {focus!r}"
                yield Fact(FOCUS, statement, None if index in assigned else "left out")
    files_lines = found.get(HEADING_OF["files"], [])
    if _omitted(files_lines):
        paths = {
            str(call.arguments["path"])
            for call in record.calls.values()
            if call.call_id in covered and call.tool in FILE_TOOLS and call.arguments.get("path")
        }
        for path in sorted(p for p in paths if word in p.lower()):
            held = any(line.startswith(f"- {path} ") for line in files_lines)
            yield Fact(
                FOCUS,
                f"Relevant Files keeps {path}, which names {focus!r}",
                None if held else "left out",
            )


def _goal(run: StoryRun, record: Record, index: int, lines: Sequence[str]) -> Iterator[Fact]:
    after = next((r for r in run.player.requests if r.compactions >= index), None)
    if after is None:
        return
    live = " ".join(after.user_texts)
    texts = window_texts(run, index)
    for turn in run.story.turns:
        if not any(turn.request in t for t in texts) or turn.request in live:
            continue
        quoted = [m[1] for line in lines if (m := _GOAL_LINE.match(line))]
        held = any(q.strip(" \u2026") and _shows(q, turn.request) for q in quoted)
        yield Fact(GOAL, f"Goal: {turn.request}", None if held else "not in Goal")


def _positional(projection: Projection, record: Record, body: str) -> Iterator[Fact]:
    """A ``[tN]`` names window message N; it must not be a message the store holds (a result or
    a call by its call id, a request or reply by its text). Every message of these sessions is
    stored, so an ``[unsaved]`` is wrong too."""
    text = projection_text(body)
    stored_calls = {
        str(call.get("id")) for row in record.rows.values() for call in row.get("tool_calls") or []
    }
    stored_results = {str(row.get("tool_call_id")) for row in record.rows.values()}
    stored_texts = {(str(r.get("role")), str(r.get("content") or "")) for r in record.rows.values()}
    stored_texts |= {(role, _RESTATED.sub("", text)) for role, text in stored_texts}
    for token in POSITIONAL_REF.findall(text):
        position = int(token[2:-1])
        turns = projection.turns
        message = turns[position - 1] if 0 < position <= len(turns) else {}
        calls = {str(call.get("id")) for call in message.get("tool_calls") or []}
        stored = (
            str(message.get("tool_call_id")) in stored_results
            if message.get("role") == "tool"
            else bool(calls & stored_calls)
            or (str(message.get("role")), _RESTATED.sub("", str(message.get("content") or "")))
            in stored_texts
        )
        problem = "it is stored" if stored else None
        yield Fact(POSITIONAL, f"{token} names an unsaved message", problem)
    for _ in re.findall(r"\[unsaved\]", text):
        yield Fact(POSITIONAL, "[unsaved] names an unsaved message", "every message is stored")


def _omissions(
    commands: Sequence[Command], listed: Sequence[Listed], lines: Sequence[str]
) -> Iterator[Fact]:
    assigned = _assign(commands, listed)
    claimed = [id(entry) for entry in assigned.values()]
    for entry in listed:
        if id(entry) not in claimed:
            statement = f"Commands Run lists a command that ran: {entry.line}"
            yield Fact(OMISSIONS, statement, "no stored command is its, or it is listed twice")
    omitted = _omitted(lines)
    statement = f"{len(assigned)} listed + {omitted} omitted = {len(commands)} commands run"
    problem = None if len(assigned) + omitted == len(commands) else "the counts differ"
    yield Fact(OMISSIONS, statement, problem)


def _error_names(record: Record, covered: set[str], lines: Sequence[str]) -> Iterator[Fact]:
    omitted = _omitted(lines)
    for name in record.error_names(covered):
        named = re.compile(rf"(?:^- |[\s.]){re.escape(name)}(?::|\s|$)")
        listed = any(named.search(line) for line in lines)
        yield Fact(ERROR_NAMES, f"Errors Seen: {name}", None if listed or omitted else "missing")


def unbridged(rows: Mapping[int, Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    """The rows with each call ``tool_call`` bridged shown as that call (its name and arguments),
    as the store's own record of what was called: a line citing ``→ process_manage`` at a row
    that bridged ``process_manage`` quotes it."""
    out: dict[int, Mapping[str, Any]] = {}
    for row_id, row in rows.items():
        calls = row.get("tool_calls") or []
        if not any((c.get("function") or {}).get("name") == BRIDGE for c in calls):
            out[row_id] = row
            continue
        shown = []
        for call in calls:
            tool, arguments = unbridged_call(call.get("function") or {})
            function = {"name": tool, "arguments": json.dumps(arguments)}
            shown.append({**call, "function": function})
        out[row_id] = {**row, "tool_calls": shown}
    return out


def largest_request(run: StoryRun) -> int:
    """The prompt size (in the server's tokens) of the largest main-loop request."""
    return max((run.model.prompt_tokens(e.body) for e in run.model.of_kind(TURN)), default=0)


def under_context(run: StoryRun) -> Fact:
    largest = largest_request(run)
    statement = f"the largest request ({largest} tokens) fits the {CONTEXT_LENGTH}-token window"
    return Fact("context", statement, None if largest < CONTEXT_LENGTH else "it does not")
