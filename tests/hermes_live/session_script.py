"""The scripted model's session: what it does on the project, step by step, and what it saw.

The model fixes the project's failing test the way an agent would (run pytest, read the module,
search it, trip over a ``json.loads`` error, patch the bug, run pytest again), then prints and
reads large data files until Hermes has compacted the conversation ``COMPACTIONS`` times. Then it
looks up, through ``session_search`` as the running Hermes offers it, the row the latest summary
cites for the failed pytest run, and finishes.

Each step is decided from the request in front of the model: the last tool result it sees names
the step that produced it (by the call id the script gave it), and the reference it looks up is
read from the summaries in that request. What the script did is recorded in ``actions`` (the
ground truth the tests check summaries against); what it saw, in ``summaries``, ``lookup`` and
``lookup_result``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from model_server import Reply, ToolCall, message_text
from project import ASSERTION_MESSAGE, BUG, DATA_FILES, FIX, MODULE, data_file

COMPACTIONS = 3
"""How many compactions the session waits for before looking a reference up."""
PYTEST = "python -m pytest -q tests"
JSON_CHECK = """python3 -c "import json; json.loads('{bad')\""""
PROMPT = (
    "The test suite of this project fails. Find the bug in tally/stats.py, fix it and make "
    "pytest pass, then go through the ledgers in data/ and report their totals."
)
"""The user's request, given to ``hermes chat -q``."""
SUMMARY_MARKER = "[CONTEXT COMPACTION"
"""How every Hermes compaction summary begins."""
SUMMARY_END = "--- END OF CONTEXT SUMMARY"
TIMES = "\u00d7"
"""The multiplication sign a summary puts before a repeat count."""
FIX_STEPS = 6
"""Steps of the fixing part of the session (``_fix_plan``), always all taken."""
FINAL_ANSWER = "Done: pytest passes and the ledgers were reviewed."
ASSERTION_TEXT = f"AssertionError: {ASSERTION_MESSAGE}"
"""What the failed pytest run printed, which looking its row up must show."""
_CALL_ID = re.compile(r"^call_(\d{3})$")
_SESSION_ID = re.compile(r"session_id\s*=\s*['\"]?([A-Za-z0-9_\-]+)")
_SCROLL_EXAMPLE = re.compile(r"session_search\(([^()]*around_message_id[^()]*)\)")
_ARGUMENT = re.compile(r"(\w+)\s*=\s*(?:'([^']*)'|\"([^\"]*)\"|(-?\d+)\b)")
_SHELL_ALTERNATIVE = re.compile(r"where that is refused, run (`+) ?(.+?) ?\1 in a terminal")
_PLACEHOLDER = re.compile(r"(?<=\s)N(?=\s|$)")


@dataclass(frozen=True)
class Action:
    """One tool call of the session, and what the project makes of it (the ground truth)."""

    index: int
    tool: str
    arguments: Mapping[str, Any]
    outcome: str | None = None
    """For a command: ``failed`` or ``succeeded``, as the project guarantees."""
    error_name: str | None = None
    """For a failing command: the exception name its output shows."""
    file: str | None = None
    """The project file the call touches."""
    operation: str | None = None
    """What it does to ``file``: ``read``, ``searched`` or ``modified``."""

    @property
    def call_id(self) -> str:
        return f"call_{self.index:03d}"

    @property
    def command(self) -> str | None:
        return str(self.arguments["command"]) if self.tool == "terminal" else None


@dataclass(frozen=True)
class Lookup:
    """The reference the model looked up after the last compaction, and how."""

    row_id: int
    line: str
    """The summary line the reference was taken from."""
    arguments: Mapping[str, Any]
    """The ``session_search`` arguments, as the summary's recovery note shows them."""
    via_tool_call: bool
    """Whether ``session_search`` was reached through Hermes's ``tool_call`` bridge."""
    call_id: str
    shell: str | None = None
    """The terminal command the summary offers where ``session_search`` is refused, once the
    model has run it (with the cited row in place of ``N``)."""


def _fix_plan(
    patch_arguments: Mapping[str, Any],
) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [
        ("terminal", {"command": PYTEST}, {"outcome": "failed", "error_name": "AssertionError"}),
        ("read_file", {"path": MODULE}, {"file": MODULE, "operation": "read"}),
        (
            "search_files",
            {"pattern": "def mean", "path": "tally"},
            {"file": "tally", "operation": "searched"},
        ),
        (
            "terminal",
            {"command": JSON_CHECK},
            {"outcome": "failed", "error_name": "JSONDecodeError"},
        ),
        ("patch", dict(patch_arguments), {"file": MODULE, "operation": "modified"}),
        ("terminal", {"command": PYTEST}, {"outcome": "succeeded"}),
    ]


def _large_plan() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    plan: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for index in range(1, DATA_FILES + 1):
        path = data_file(index)
        plan.append(("terminal", {"command": f"cat {path}"}, {"outcome": "succeeded"}))
        plan.append(
            ("read_file", {"path": path, "limit": 2000}, {"file": path, "operation": "read"})
        )
    return plan


@dataclass
class ScriptedSession:
    """The model's behaviour (``__call__`` is a ``model_server.Script``) and its record.

    ``compactions`` tells how often Hermes has compacted so far (the test counts the windows
    Hermes handed to vcc); the model keeps producing large outputs until it reaches
    ``COMPACTIONS``.
    """

    compactions: Callable[[], int]
    actions: list[Action] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    """Every distinct compaction summary the model was shown, in the order it first saw them."""
    lookup: Lookup | None = None
    lookup_result: str | None = None
    """What the model got back from its ``session_search`` call."""
    problems: list[str] = field(default_factory=list)
    """What kept the model from following its plan (e.g. no reference to look up)."""
    finished: bool = False

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def __call__(self, body: Mapping[str, Any]) -> Reply:
        messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
        tools = {str((t.get("function") or {}).get("name")): t for t in body.get("tools") or []}
        with self._lock:
            shown = self._note_summaries(messages)
            if self.finished:
                return Reply(FINAL_ANSWER)
            done = _last_step(messages)
            if self.lookup is not None and done is not None and done >= _index(self.lookup.call_id):
                self.lookup_result = _result_of(messages, self.lookup.call_id)
                if self.lookup.shell is None and _refused(self.lookup_result or ""):
                    return self._look_up_in_a_terminal(shown)
                return self._finish()
            plan = _fix_plan(_patch_arguments(tools)) + _large_plan()
            following = 0 if done is None else done + 1
            compacted = self.compactions()
            if following < FIX_STEPS or (following < len(plan) and compacted < COMPACTIONS):
                return self._act(following, *plan[following])
            if compacted < COMPACTIONS:
                self.problems.append(f"the large outputs ran out after {compacted} compactions")
                return self._finish()
            return self._look_up(following, tools, shown)

    def _note_summaries(self, messages: Sequence[Mapping[str, Any]]) -> list[str]:
        """Records the summaries in the request; returns them, the most recent first."""
        shown = [block for m in messages for block in summary_blocks(message_text(m))]
        for block in shown:
            if block not in self.summaries:
                self.summaries.append(block)
        return sorted(set(shown), key=self.summaries.index, reverse=True)

    def _act(
        self, index: int, tool: str, arguments: dict[str, Any], facts: dict[str, Any]
    ) -> Reply:
        action = Action(index, tool, arguments, **facts)
        if all(a.index != index for a in self.actions):
            self.actions.append(action)
        return Reply(tool_calls=[ToolCall(action.call_id, tool, arguments)])

    def _look_up(self, index: int, tools: Mapping[str, Any], shown: Sequence[str]) -> Reply:
        found = next(
            ((summary, cited) for summary in shown if (cited := _failed_pytest_reference(summary))),
            None,
        )
        arguments = _recovery_arguments(*found) if found else None
        if found is None or arguments is None:
            missing = "a [#N] for the failed pytest run" if found is None else "a session id"
            self.problems.append(f"no summary the model was shown gives {missing} to look up")
            return self._finish()
        row_id, line = found[1]
        via_tool_call = "session_search" not in tools and "tool_call" in tools
        call_id = f"call_{index:03d}"
        self.lookup = Lookup(row_id, line, arguments, via_tool_call, call_id)
        if via_tool_call:
            bridged = {"calls": [{"name": "session_search", "arguments": arguments}]}
            call = ToolCall(call_id, "tool_call", bridged)
        else:
            call = ToolCall(call_id, "session_search", arguments)
        return Reply(tool_calls=[call])

    def _look_up_in_a_terminal(self, shown: Sequence[str]) -> Reply:
        """``session_search`` refused the lookup: runs the terminal command the summary offers
        instead, when it offers one."""
        assert self.lookup is not None
        offered = next(
            (found[2] for summary in shown if (found := _SHELL_ALTERNATIVE.search(summary))), None
        )
        if offered is None:
            self.problems.append("session_search was refused and the summary offers nothing else")
            return self._finish()
        command = _PLACEHOLDER.sub(str(self.lookup.row_id), offered, count=1)
        call_id = f"call_{_index(self.lookup.call_id) + 1:03d}"
        self.lookup = replace(self.lookup, shell=command, call_id=call_id)
        return Reply(tool_calls=[ToolCall(call_id, "terminal", {"command": command})])

    def _finish(self) -> Reply:
        self.finished = True
        return Reply(FINAL_ANSWER)

    def commands(self) -> list[Action]:
        return [a for a in self.actions if a.command is not None]


def summary_blocks(text: str) -> list[str]:
    """The compaction summaries in a message's text, each from Hermes's prefix to its end
    marker (Hermes 0.19 piles earlier summaries into one message)."""
    blocks = []
    for piece in text.split(SUMMARY_MARKER)[1:]:
        end = piece.find(SUMMARY_END)
        blocks.append(SUMMARY_MARKER + (piece if end < 0 else piece[: end + len(SUMMARY_END)]))
    return blocks


def _refused(result: str) -> bool:
    """Whether a tool result is Hermes's refusal rather than an answer."""
    return '"success": false' in result or result.startswith('{"error"')


def _index(call_id: str) -> int:
    match = _CALL_ID.match(call_id)
    return int(match[1]) if match else -1


def _result_of(messages: Sequence[Mapping[str, Any]], call_id: str) -> str | None:
    for message in messages:
        if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            return message_text(message)
    return None


def _last_step(messages: Sequence[Mapping[str, Any]]) -> int | None:
    for message in reversed(messages):
        if message.get("role") == "tool":
            match = _CALL_ID.match(str(message.get("tool_call_id") or ""))
            if match:
                return int(match[1])
    return None


def _patch_arguments(tools: Mapping[str, Any]) -> dict[str, Any]:
    """The patch call for the bug, with ``mode`` where this Hermes's patch tool has one."""
    arguments: dict[str, Any] = {
        "path": MODULE,
        "old_string": BUG.strip(),
        "new_string": FIX.strip(),
    }
    parameters = ((tools.get("patch") or {}).get("function") or {}).get("parameters") or {}
    if "mode" in (parameters.get("properties") or {}):
        arguments = {"mode": "replace", **arguments}
    return arguments


def _recovery_arguments(summary: str, cited: tuple[int, str]) -> dict[str, Any] | None:
    """The arguments of a scroll call on the cited row: those of the ``session_search(...)``
    example in the summary that has an ``around_message_id`` (its literal values; placeholders are
    left out), else just the session id the summary names; ``None`` without a session id."""
    arguments: dict[str, Any] = {}
    example = _SCROLL_EXAMPLE.search(summary)
    for name, single, double, number in _ARGUMENT.findall(example[1] if example else ""):
        arguments[name] = int(number) if number else single or double
    if "session_id" not in arguments:
        session = _SESSION_ID.search(summary)
        if session is None:
            return None
        arguments["session_id"] = session[1]
    return {**arguments, "around_message_id": cited[0]}


def _failed_pytest_reference(summary: str) -> tuple[int, str] | None:
    """The ``[#N]`` a reader takes from the summary for the failed pytest run: the outcome cited
    right after ``failed`` on a line naming the pytest command."""
    for line in summary.splitlines():
        if PYTEST not in line:
            continue
        match = re.search(rf"failed \(exit 1\)(?: {TIMES}\d+)? \[#(\d+)\]", line)
        if match:
            return int(match[1]), line
    return None
