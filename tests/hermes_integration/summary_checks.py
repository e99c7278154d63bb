"""Reading a compaction summary back: its sections, and whether each ``[#N]`` reference cites the
stored message with row id N. Each check returns a list of problems (empty when it holds), so a
failure lists every offending line at once.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

_SHARED = json.loads(
    (Path(__file__).resolve().parents[1] / "shared" / "projection_sections.json").read_text(
        encoding="utf-8"
    )
)
HEADING_OF: dict[str, str] = {section["id"]: section["heading"] for section in _SHARED["sections"]}
"""Each section's heading by its id in vcc's section table (``tests/shared``, generated from it)."""

PROJECTION_SECTIONS = tuple(HEADING_OF.values())
"""The projection's sections, in order."""

HERMES_APPENDED_SECTIONS = tuple(_SHARED["appended"])
"""Sections Hermes's own lean post-processing may append (releases that have it)."""

REF = re.compile(r"\[#(\d+)\]")
POSITIONAL_REF = re.compile(r"\[t\d+\]")
_TOKEN = re.compile(r"[A-Za-z0-9_]{3,}")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
# `- [#N] tool `subject` — …` (Blocked, Errors & Fixes) and `- [#N] `command` — …` (Commands Run);
# a subject holding backticks is fenced with a longer run and spaces, a background job's is
# followed by its process id, `(job proc_1a2b)`, and a subject that does not tell the call apart
# by its fingerprint, `(id 1a2b3c4d)`.
_CALL_ENTRY = re.compile(
    r"^- (?:\[#(?P<id>\d+)\] )?(?:(?P<tool>[^\s`]+)(?: |(?= —)))?"
    r"(?:(?P<fence>`+) ?(?P<subject>.+?) ?(?P=fence))?(?P<job> \(job [\w.-]+\))?"
    r"(?: \(id [0-9a-f]{8}\))? — (?P<outcomes>.*)$"
)
PROCESS_TOOLS = ("process", "process_manage")
"""The names Hermes's process tool has in its releases."""
BRIDGE = "tool_call"
"""The tool through which the model calls the tools Hermes (0.22) defers: ``{"calls": [{"name",
"arguments"}]}``; a call through it is a call of each tool it carries."""
_LOG_TEXT = re.compile(r"^\[#(\d+)\] (user|assistant|system|hermes): (.*)$")
# A note Hermes wrote to a user row (a restored task list, a job's notice), bracketed as it writes
# them.
_HERMES_NOTE = "hermes"
_LOG_CALL = re.compile(r"^\[#(\d+)\] → ([^\s:]+)(?:: (`+) ?(.*?) ?\3)?$")
_LOG_RESULT = re.compile(r"^\[#(\d+)\] ← ([^\s:]+)(?: ok| [^:]+)?(?:: (.*))?$")
_GOAL = re.compile(r"^\[#(\d+)\] (.*)$")
# Hermes's grounding of the task snapshot, as the engine keeps the quoted message's reference.
_GROUNDED_QUOTE = re.compile(r"^User asked \(deterministic, from compacted turns\): (['\"])(.*)\1$")
_ERROR_LINE = re.compile(r"^- (.+?)(?: \u00d7\d+(?:, numbers vary)?)? \(first at \[#(\d+)\]\)$")
_FILE = re.compile(r"^- (.+?) — (.*)$")


# Commands that succeeded once share a line, each part citing its result:
# `- succeeded (exit 0) once each: [#b] `cmd`; …`.
_SHARED = re.compile(r"^- (?P<state>.+?) once each: (?P<parts>.*)$")
_SHARED_PART = re.compile(
    r"\[#(?P<result>\d+)\] (?P<fence>`+) ?(?P<subject>.+?) ?(?P=fence)"
    r"(?P<marks>(?: \((?:job|id) [\w.-]+\))*)(?:; |$)"
)


def command_lines(lines: Sequence[str]) -> list[str]:
    """Commands Run's lines with each shared line read as one line per command it holds, in the
    form of the others without a call: ``- `cmd` — succeeded (exit 0) [#b]``."""
    out: list[str] = []
    for line in lines:
        shared = _SHARED.match(line)
        if shared is None:
            out.append(line)
            continue
        for part in _SHARED_PART.finditer(shared["parts"]):
            fence = part["fence"]
            pad = " " if len(fence) > 1 else ""
            out.append(
                f"- {fence}{pad}{part['subject']}{pad}{fence}{part['marks']} — "
                f"{shared['state']} [#{part['result']}]"
            )
    return out


def sections(summary: str) -> dict[str, list[str]]:
    """The summary's lines under each ``## `` heading (the prefix above the first is dropped)."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in summary.splitlines():
        if line.startswith("## "):
            current = out.setdefault(line, [])
        elif current is not None:
            current.append(line)
    return out


def headings(summary: str) -> list[str]:
    """Every ``## `` heading of the summary, in order."""
    return [line for line in summary.splitlines() if line.startswith("## ")]


def section_problems(summary: str) -> list[str]:
    """The projection's sections come first, in their order, each at most once (an empty one is
    left out), starting with the task snapshot and ending with the session log; only Hermes's
    own lean sections may follow."""
    found = headings(summary)
    ours = [h for h in found if h in PROJECTION_SECTIONS]
    problems = []
    if ours != [h for h in PROJECTION_SECTIONS if h in ours]:
        problems.append(f"the projection's sections are out of order or repeated: {ours}")
    if ours[:1] != [PROJECTION_SECTIONS[0]] or ours[-1:] != [PROJECTION_SECTIONS[-1]]:
        problems.append(f"the snapshot must open and the session log close the projection: {ours}")
    extra = [h for h in found[len(ours) :] if h not in HERMES_APPENDED_SECTIONS]
    if found[: len(ours)] != ours or extra:
        problems.append(f"sections are {found}")
    return problems


# The note naming the directory that lines show as `…`, and where `…` stands for it.
_ROOT_NOTE = re.compile(r"^\(\u2026 is (/\S+)\)$", re.MULTILINE)
_ROOT_IN_PATH = re.compile(r"(?<![^\s'\"`=(:,])\u2026/")
_ROOT_CD = re.compile(r"(?<![^\s'\"`=(:,])cd \u2026(?=$|[\s;&|)])")


def projection_text(summary: str) -> str:
    """The projection's own sections of the summary, without what Hermes added around them (its
    appended sections quote messages verbatim, which may contain anything), with paths whole
    where the projection names a root."""
    kept = []
    keep = False
    for line in summary.splitlines():
        if line.startswith("## "):
            keep = line in PROJECTION_SECTIONS
        if keep:
            kept.append(line)
    text = "\n".join(kept)
    if root := _ROOT_NOTE.search(summary):
        text = _ROOT_IN_PATH.sub(lambda _: f"{root[1]}/", text)
        text = _ROOT_CD.sub(lambda _: f"cd {root[1]}", text)
    return text


def references(summary: str) -> set[int]:
    """Every row id the projection's sections of the summary cite."""
    return {int(n) for n in REF.findall(projection_text(summary))}


class Evidence:
    """What each stored row says, for checking that a line quoting it quotes the right row.

    ``rows`` maps row ids to the messages stored under them. A tool result row also counts as
    saying what its call said (tool name and arguments), since summaries name results by call.
    ``redact`` is Hermes's compaction redaction, which the summary went through.
    """

    def __init__(self, rows: Mapping[int, Mapping[str, Any]], redact: Callable[[str], str]) -> None:
        self.rows = rows
        self._redact = redact
        self._calls: dict[str, tuple[str, str]] = {}
        self._carried: dict[str, set[str]] = {}
        self._results: dict[str, list[str]] = {}
        self._texts: dict[tuple[int, bool, bool], str] = {}
        for row in rows.values():
            for call in row.get("tool_calls") or []:
                function = call.get("function") or {}
                self._calls[str(call.get("id"))] = (
                    str(function.get("name", "")),
                    _argument_text(function.get("arguments")),
                )
                self._carried[str(call.get("id"))] = _carried_names(function)
            if row.get("role") == "tool":
                answer = _content_text(row.get("content"))
                self._results.setdefault(str(row.get("tool_call_id")), []).append(answer)

    def role(self, row_id: int) -> str | None:
        row = self.rows.get(row_id)
        return None if row is None else str(row.get("role"))

    def call_names(self, row_id: int) -> set[str]:
        """Tools the row called (assistant rows) or answered for (tool rows)."""
        row = self.rows.get(row_id) or {}
        call_ids = [str(call.get("id")) for call in row.get("tool_calls") or []]
        names = {
            str((call.get("function") or {}).get("name")) for call in row.get("tool_calls") or []
        }
        if row.get("role") == "tool":
            call_ids.append(str(row.get("tool_call_id")))
            names.add(str(row.get("tool_name")))
            names.add(self._calls.get(str(row.get("tool_call_id")), ("", ""))[0])
        for call_id in call_ids:
            names |= self._carried.get(call_id, set())
        return names - {"", "None"}

    def text(self, row_id: int, *, calls: bool = True, results: bool = False) -> str:
        """The row's words (content and reasoning), plus with ``calls`` the names and arguments
        of its calls (or of the call it answers), plus with ``results`` what its calls returned;
        both as stored and as Hermes's redaction leaves them."""
        key = (row_id, calls, results)
        if key not in self._texts:
            row = self.rows.get(row_id) or {}
            parts = [_content_text(row.get("content")), str(row.get("reasoning") or "")]
            call_ids = [str(call.get("id")) for call in row.get("tool_calls") or []]
            if row.get("role") == "tool":
                call_ids.append(str(row.get("tool_call_id")))
            for call_id in call_ids:
                if calls:
                    parts += self._calls.get(call_id, ())
                if results:
                    parts += self._results.get(call_id, ())
            raw = _normalise("\n".join(parts))
            self._texts[key] = raw + "\n" + _normalise(self._redact(raw))
        return self._texts[key]

    def quotes(
        self, row_id: int, quoted: str, *, calls: bool = True, results: bool = False
    ) -> bool:
        """Whether the row says the first words of ``quoted`` (a possibly cut excerpt)."""
        words = _TOKEN.findall(quoted)
        if quoted.rstrip().endswith("…") and len(words) > 1:
            words = words[:-1]
        text = self.text(row_id, calls=calls, results=results)
        return all(word in text for word in words[:4])


def citation_problems(summary: str, evidence: Evidence) -> list[str]:
    """Every ``[#N]`` must name a stored row, and each line must quote the row it cites: a
    request cites a user row with those words, a call cites the row that made it, a result or
    an outcome cites a tool row answering that tool, a file or an error name cites a row that
    mentions it. Also no ``[tN]`` may appear: every row here was stored, so each has an id."""
    projection = projection_text(summary)
    problems = [f"positional reference: {line}" for line in _lines_with(POSITIONAL_REF, projection)]
    for row_id in sorted(references(summary)):
        if evidence.role(row_id) is None:
            problems.append(f"[#{row_id}] is not a stored row of this session")
    if problems:
        return problems
    checks: dict[str, Callable[[str, Evidence], list[str]]] = {
        HEADING_OF["snapshot"]: _snapshot_line,
        HEADING_OF["requests"]: _goal_line,
        HEADING_OF["decisions"]: _statement_line,
        HEADING_OF["blocked"]: _call_entry,
        HEADING_OF["errors"]: _call_entry,
        HEADING_OF["commands"]: _command_entry,
        HEADING_OF["errorsSeen"]: _error_line,
        HEADING_OF["files"]: _file_line,
        HEADING_OF["log"]: _log_line,
    }
    for heading, lines in sections(projection).items():
        check = checks.get(heading)
        if heading == HEADING_OF["commands"]:
            lines = command_lines(lines)
        for line in lines if check else []:
            if REF.search(line):
                problems += [f"{heading}: {problem}: {line}" for problem in check(line, evidence)]
    return problems


def _goal_line(line: str, evidence: Evidence) -> list[str]:
    match = _GOAL.match(line)
    if match is None:
        return ["unreadable line"]
    row_id, text = int(match[1]), match[2]
    if evidence.role(row_id) != "user":
        return [f"[#{row_id}] is a {evidence.role(row_id)} row, not a request"]
    return [] if evidence.quotes(row_id, text) else [f"[#{row_id}] does not say this"]


def _snapshot_line(line: str, evidence: Evidence) -> list[str]:
    """A request line, or Hermes's grounded line with the reference of the request it quotes."""
    match = _GOAL.match(line)
    grounded = _GROUNDED_QUOTE.match(match[2]) if match else None
    return _goal_line(f"[#{match[1]}] {grounded[2]}" if match and grounded else line, evidence)


def _call_entry(line: str, evidence: Evidence, *, named: bool = True) -> list[str]:
    match = _CALL_ENTRY.match(line)
    if match is None or (named and match["tool"] is None):
        return ["unreadable line"]
    tool, subject = match["tool"], match["subject"] or ""
    row_id = int(match["id"]) if match["id"] else None
    # A background job's runs are the results of the process calls that report on it.
    tools = {tool, *(PROCESS_TOOLS if match["job"] else ())}
    problems = []
    if row_id is None:
        # A line without its call (a command that first succeeded once): its outcomes' rows answer
        # a call that ran it.
        problems += [
            f"the outcome [#{result}] did not answer {subject!r}"
            for result in (int(n) for n in REF.findall(match["outcomes"]))
            if not evidence.quotes(result, subject)
        ]
        if not named and REF.search(match["outcomes"]) is None:
            problems.append("a line without its call cites no outcome")
    elif evidence.role(row_id) != "assistant":
        problems.append(f"the call [#{row_id}] is a {evidence.role(row_id)} row")
    elif tool is not None and tool not in evidence.call_names(row_id):
        problems.append(f"[#{row_id}] made no {tool} call")
    elif not evidence.quotes(row_id, subject):
        problems.append(f"[#{row_id}] did not call {subject!r}")
    for result in (int(n) for n in REF.findall(match["outcomes"])):
        # A call without a result ("no result") cites itself: the line's call, or a later call of
        # the same command (a run's last row).
        if result == row_id or (
            evidence.role(result) == "assistant" and evidence.quotes(result, subject)
        ):
            continue
        if evidence.role(result) != "tool":
            problems.append(f"the outcome [#{result}] is a {evidence.role(result)} row")
        elif tool is not None and not (set(evidence.call_names(result)) & tools):
            problems.append(f"the outcome [#{result}] is not a {tool} result")
    return problems


def _command_entry(line: str, evidence: Evidence) -> list[str]:
    return _call_entry(line, evidence, named=False)


def _error_line(line: str, evidence: Evidence) -> list[str]:
    match = _ERROR_LINE.match(line)
    if match is None:
        return ["unreadable line"]
    text, row_id = match[1], int(match[2])
    return [] if evidence.quotes(row_id, text) else [f"[#{row_id}] does not print {text}"]


def _file_line(line: str, evidence: Evidence) -> list[str]:
    match = _FILE.match(line)
    if match is None:
        return ["unreadable line"]
    path, operations = match[1], match[2]
    name = path.rstrip("/").rsplit("/", 1)[-1] or path
    return [
        f"[#{row_id}] does not touch {path}"
        for row_id in (int(n) for n in REF.findall(operations))
        if not evidence.quotes(row_id, name, results=True)
    ]


def _statement_line(line: str, evidence: Evidence) -> list[str]:
    """A statement quotes the user or assistant row it cites, in that row's role."""
    return _log_line(line, evidence) if _LOG_TEXT.match(line) else ["unreadable line"]


def _log_line(line: str, evidence: Evidence) -> list[str]:
    if match := _LOG_TEXT.match(line):
        row_id, role, text = int(match[1]), match[2], match[3]
        if role == _HERMES_NOTE:
            bracketed = evidence.text(row_id).lstrip().startswith("[")
            if evidence.role(row_id) != "user" or not bracketed:
                return [f"[#{row_id}] is no note Hermes wrote to a user row"]
        elif evidence.role(row_id) != role:
            return [f"[#{row_id}] is a {evidence.role(row_id)} row"]
        quoted = evidence.quotes(row_id, text, calls=False)
        return [] if quoted else [f"[#{row_id}] does not say this"]
    if match := _LOG_CALL.match(line):
        row_id, tool, subject = int(match[1]), match[2], match[4] or ""
        if tool not in evidence.call_names(row_id) or evidence.role(row_id) != "assistant":
            return [f"[#{row_id}] made no {tool} call"]
        return [] if evidence.quotes(row_id, subject) else [f"[#{row_id}] did not call this"]
    if match := _LOG_RESULT.match(line):
        row_id, tool = int(match[1]), match[2]
        if evidence.role(row_id) != "tool" or tool not in evidence.call_names(row_id):
            return [f"[#{row_id}] is not a {tool} result"]
        quoted = evidence.quotes(row_id, match[3] or "", calls=False)
        return [] if quoted else [f"[#{row_id}] did not return this"]
    return ["unreadable line"]


def tool_pair_problems(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each assistant row with tool calls must be followed directly by one tool row per call,
    answering exactly those calls; no tool row may stand anywhere else."""
    problems = []
    index = 0
    while index < len(messages):
        message = messages[index]
        index += 1
        if message.get("role") == "tool":
            problems.append(
                f"row {index - 1}: tool result {message.get('tool_call_id')} has no call"
            )
            continue
        calls = [str(call.get("id")) for call in message.get("tool_calls") or []]
        if not calls:
            continue
        answers = []
        while index < len(messages) and messages[index].get("role") == "tool":
            answers.append(str(messages[index].get("tool_call_id")))
            index += 1
        if sorted(answers) != sorted(calls):
            problems.append(f"row {index - len(answers) - 1}: calls {calls}, results {answers}")
    return problems


def _lines_with(pattern: re.Pattern[str], text: str) -> list[str]:
    return [line for line in text.splitlines() if pattern.search(line)]


def _content_text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _carried_names(function: Mapping[str, Any]) -> set[str]:
    """The tools a call through the deferred-tool bridge carries (none for any other call)."""
    if function.get("name") != BRIDGE:
        return set()
    arguments = function.get("arguments")
    try:
        decoded = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return set()
    calls = decoded.get("calls") if isinstance(decoded, dict) else None
    if not isinstance(calls, list):
        return set()
    named = (call for call in calls if isinstance(call, dict))
    return {call["name"] for call in named if isinstance(call.get("name"), str)}


def _argument_text(arguments: Any) -> str:
    """Tool-call arguments with JSON string escapes decoded (as the projection quotes them)."""
    if not isinstance(arguments, str):
        return json.dumps(arguments, ensure_ascii=False)
    try:
        decoded = json.loads(arguments)
    except ValueError:
        return arguments
    return arguments + "\n" + json.dumps(decoded, ensure_ascii=False) + "\n" + _values(decoded)


def _values(value: Any) -> str:
    if isinstance(value, dict):
        return "\n".join(_values(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(_values(v) for v in value)
    return str(value)


def _normalise(text: str) -> str:
    """Drops what the projection drops from quoted text: ANSI escapes, control and format
    characters."""
    text = _ANSI.sub("", text)
    return "".join(
        ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf")
    )
