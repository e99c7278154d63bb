"""The scripted model playing a story (``__call__`` is a ``model_server.Script``).

Each main-loop request is answered with the next step of the current turn (``turn`` is set by
the runner before each Hermes process starts): the first step of that turn whose result the model
has not seen yet, called by its id ``call_NNN`` (its index in ``Story.steps()``). A tool Hermes
defers is called through ``tool_call`` under the name its deferred catalogue gives; a tool it does
not offer at all is skipped and noted. After the turn's steps come its fillers, until Hermes has
compacted the turn's number of times; then the turn's answer. A delegated child is told from its
parent by the marker its goal opens with, and gets a child's script of its own.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from catalogue import CHILD_MARKER
from model_server import Reply, ToolCall, message_text
from session_script import summary_blocks
from story import JOB, Step, Story

_DEFERRED_ENTRY = re.compile(r"^- ([A-Za-z_][\w.-]*):", re.MULTILINE)
_JOB_ID = re.compile(r'"session_id"\s*:\s*"(proc_[0-9a-f]+)"')
CHILD_COMMAND = "wc -l tally/stats.py"


@dataclass(frozen=True)
class SeenRequest:
    """What one main-loop request held: how many compactions had happened when it arrived, and
    the user messages it carried outside summaries."""

    compactions: int
    user_texts: tuple[str, ...]


@dataclass
class StoryPlayer:
    story: Story
    compactions: Callable[[], int]
    turn: int = 0
    """The index of the turn being played."""
    target: int = 0
    """The compaction count the current turn waits for."""
    answered: set[str] = field(default_factory=set)
    """Call ids whose results the model has seen."""
    calls: dict[str, ToolCall] = field(default_factory=dict)
    """Every call the model made, by id, as it made it."""
    jobs: dict[str, str] = field(default_factory=dict)
    """The process id each background start returned, by the start's call id."""
    requests: list[SeenRequest] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Steps the running Hermes offered no tool for."""
    finished: set[int] = field(default_factory=set)
    """Turns the model has answered."""
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._steps = self.story.steps()
        self._first = {}
        index = 0
        for number, turn in enumerate(self.story.turns):
            self._first[number] = index
            index += len(turn.steps) + len(turn.fillers)

    def start_turn(self, number: int) -> None:
        """Called by the runner before the turn's Hermes process starts."""
        with self._lock:
            self.turn = number
            self.target = self.compactions() + self.story.turns[number].compactions

    def __call__(self, body: Mapping[str, Any]) -> Reply:
        messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
        with self._lock:
            self._note(messages)
            child = _child_goal(messages)
            if child is not None:
                return self._child(child, messages)
            self.requests.append(SeenRequest(self.compactions(), _user_texts(messages)))
            return self._next(offered_tools(body))

    def _note(self, messages: Sequence[Mapping[str, Any]]) -> None:
        for message in messages:
            call_id = str(message.get("tool_call_id") or "")
            if message.get("role") != "tool" or call_id not in self.calls:
                continue
            self.answered.add(call_id)
            found = _JOB_ID.search(message_text(message))
            if found and call_id not in self.jobs and self.calls[call_id].name == "terminal":
                self.jobs[call_id] = found[1]

    def _next(self, offered: Offered) -> Reply:
        turn = self.story.turns[self.turn]
        first = self._first[self.turn]
        for index in range(first, first + len(turn.steps)):
            call_id = f"call_{index:03d}"
            if call_id in self.answered or call_id in self.skipped:
                continue
            call = self._call(call_id, self._steps[index], offered)
            if call is not None:
                return Reply(tool_calls=[call])
        fillers = range(first + len(turn.steps), first + len(turn.steps) + len(turn.fillers))
        if self.compactions() < self.target:
            for index in fillers:
                call_id = f"call_{index:03d}"
                if call_id not in self.answered:
                    call = self._call(call_id, self._steps[index], offered)
                    if call is not None:
                        return Reply(tool_calls=[call])
            self.problems.append(f"turn {self.turn + 1} ran out of large outputs")
        self.finished.add(self.turn)
        return Reply(turn.answer)

    def _call(self, call_id: str, step: Step, offered: Offered) -> ToolCall | None:
        """The call of a step as this Hermes offers its tool; ``None`` when it does not."""
        found = offered.names.get(step.tool)
        if found is None:
            self.skipped.append(call_id)
            return None
        name, deferred = found
        arguments = self._arguments(step, offered)
        if deferred:
            bridged = {"calls": [{"name": name, "arguments": arguments}]}
            call = ToolCall(call_id, "tool_call", bridged)
        else:
            call = ToolCall(call_id, name, arguments)
        self.calls[call_id] = call
        return call

    def _arguments(self, step: Step, offered: Offered) -> dict[str, Any]:
        arguments = dict(step.arguments)
        if arguments.get("session_id") == JOB:
            arguments["session_id"] = list(self.jobs.values())[-1] if self.jobs else "proc_none"
        if step.tool == "patch" and "mode" not in offered.patch_modes:
            arguments.pop("mode", None)
        if step.tool == "patch" and "patch" in arguments and "patch" not in offered.patch_modes:
            arguments = _v4a_as_replace(arguments)
        return arguments

    def _child(self, goal: str, messages: Sequence[Mapping[str, Any]]) -> Reply:
        """A delegated child runs one command, then reports."""
        ran = any(m.get("role") == "tool" for m in messages)
        if not ran:
            call_id = f"call_child_{sorted(self.story.child_goals).index(goal)}"
            return Reply(tool_calls=[ToolCall(call_id, "terminal", {"command": CHILD_COMMAND})])
        return Reply(self.story.child_goals.get(goal, "Child report: done."))


@dataclass(frozen=True)
class Offered:
    """The tools a request offers: each by its plain name, with the name it is called by and
    whether it is deferred (called through ``tool_call``: ``process_manage`` for ``process``);
    and the modes the patch tool takes (``mode`` and ``patch`` where it takes V4A patches)."""

    names: Mapping[str, tuple[str, bool]]
    patch_modes: frozenset[str]


def offered_tools(body: Mapping[str, Any]) -> Offered:
    """What a request offers, read from its tool schemas and the deferred catalogue that the
    ``tool_search`` description lists."""
    names: dict[str, tuple[str, bool]] = {}
    modes: set[str] = set()
    functions = [tool.get("function") or {} for tool in body.get("tools") or []]
    for function in functions:
        name = str(function.get("name"))
        names[name] = (name, False)
        if name == "patch":
            mode = ((function.get("parameters") or {}).get("properties") or {}).get("mode")
            if mode is not None:
                modes |= {"mode", *mode.get("enum", ())}
    if "tool_call" in names:
        for function in functions:
            if function.get("name") != "tool_search":
                continue
            for deferred in _DEFERRED_ENTRY.findall(str(function.get("description") or "")):
                names.setdefault(deferred, (deferred, True))
                names.setdefault(deferred.split("_")[0], (deferred, True))
    return Offered(names, frozenset(modes))


def _child_goal(messages: Sequence[Mapping[str, Any]]) -> str | None:
    """The delegated goal a child's conversation opens with (Hermes hands a child its goal as
    its first user message); ``None`` for the parent's, whose first user message may quote the
    goal inside a compaction summary."""
    first = next((m for m in messages if m.get("role") == "user"), None)
    text = message_text(first).strip() if first is not None else ""
    if not text.startswith(CHILD_MARKER):
        return None
    return text.splitlines()[0].strip()


def _user_texts(messages: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    texts = []
    for message in messages:
        if message.get("role") != "user":
            continue
        text = message_text(message)
        for block in summary_blocks(text):
            text = text.replace(block, "")
        texts.append(text)
    return tuple(texts)


def _v4a_as_replace(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The first update of a V4A patch as a replace edit, for a patch tool without V4A."""
    lines = str(arguments["patch"]).splitlines()
    path = next(line.split(": ", 1)[1] for line in lines if line.startswith("*** Update File: "))
    old = [line[1:] for line in lines if line.startswith("-") and not line.startswith("---")]
    new = [line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")]
    return {"path": path, "old_string": old[0], "new_string": new[0]}
