"""The compactions the integration tests inspect, each run once in its own sandbox: realistic rows
written into a real session store, loaded back as Hermes resumes a session, and compacted by
Hermes's host flow with the vcc engine that Hermes itself loaded.

- ``auto-pruned``: an automatic compaction (``force=False``) of a generated window full of pruning
  stubs, which Hermes prunes further before the summary step; the user's requests carry
  credentials.
- ``merge``: a manual compaction, then more rows, then a second one by a fresh agent (as after a
  restart), which must merge the first summary that Hermes reads back from the transcript.
- ``manual-focus``: ``/compress <focus>``: a manual compaction (``force=True``) with a focus topic.
- ``corpus``: a manual compaction of real SWE-agent traces (skipped when the corpus is absent).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hermes_sandbox import Pass, Sandbox, compact, load_history, store_rows
from hermes_state import SessionDB
from sample_windows import corpus_window, generated_window, with_credentials

SESSION_ID = "20261130_091500_a1b2c3"
OTHER_SESSION_ID = "20261129_170000_d4e5f6"


@dataclass
class Compaction:
    """A scenario's session and its compaction passes, oldest first."""

    name: str
    store: SessionDB
    passes: list[Pass]
    stored: dict[int, dict[str, Any]]
    """Every row loaded for any of the passes, by row id: what a ``[#N]`` may cite."""
    session_id: str = SESSION_ID
    focus_topic: str | None = None
    unfocused_body: str | None = None
    """The projection of the focused pass's window without the focus topic."""
    secrets: bool = False
    """Whether the user's requests carry ``sample_windows.CREDENTIALS``."""


def _begin(sandbox: Sandbox, rows: list[dict[str, Any]]) -> tuple[SessionDB, Any]:
    """Installs the plugin, fills the store (another session first, so this session's row ids
    are not its positions) and loads an agent for the session."""
    sandbox.copy_plugin()
    sandbox.write_config()
    store = sandbox.open_store()
    store.create_session(OTHER_SESSION_ID, source="cli")
    store_rows(store, OTHER_SESSION_ID, generated_window(seed=7, tokens=3_000))
    store.create_session(SESSION_ID, source="cli")
    store_rows(store, SESSION_ID, rows)
    return store, sandbox.load_agent(SESSION_ID, store)


def _load(store: SessionDB, stored: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The session as Hermes loads it, each row also recorded in ``stored``."""
    history = load_history(store, SESSION_ID)
    for message in history:
        stored.setdefault(message["_row_id"], message)
    return history


def auto_pruned(sandbox: Sandbox) -> Compaction:
    store, agent = _begin(sandbox, with_credentials(generated_window(101, 120_000)))
    stored: dict[int, dict[str, Any]] = {}
    passes = [compact(agent, _load(store, stored), force=False)]
    return Compaction("auto-pruned", store, passes, stored, secrets=True)


def merge(sandbox: Sandbox) -> Compaction:
    store, agent = _begin(sandbox, generated_window(202, 100_000))
    stored: dict[int, dict[str, Any]] = {}
    passes = [compact(agent, _load(store, stored), force=True)]
    store_rows(store, SESSION_ID, generated_window(203, 80_000))
    restarted = sandbox.load_agent(SESSION_ID, store)
    passes.append(compact(restarted, _load(store, stored), force=True))
    return Compaction("merge", store, passes, stored)


def manual_focus(sandbox: Sandbox) -> Compaction:
    rows = generated_window(303, 120_000)
    topic = rarely_recent_file(rows)
    store, agent = _begin(sandbox, rows)
    stored: dict[int, dict[str, Any]] = {}
    done = compact(agent, _load(store, stored), force=True, focus_topic=topic)
    unfocused = None
    if done.requests:
        # The same window projected again by the same vcc, only without the focus topic.
        request = {**done.requests[-1], "focus": None}
        unfocused = agent.context_compressor._client().project(request, 60.0)["body"]
    return Compaction(
        "manual-focus", store, [done], stored, focus_topic=topic, unfocused_body=unfocused
    )


def corpus(sandbox: Sandbox) -> Compaction | None:
    rows = corpus_window("all-stitched.json")
    if rows is None:
        return None
    store, agent = _begin(sandbox, rows)
    stored: dict[int, dict[str, Any]] = {}
    passes = [compact(agent, _load(store, stored), force=True)]
    return Compaction("corpus", store, passes, stored)


SCENARIOS: dict[str, Callable[[Sandbox], Compaction | None]] = {
    "auto-pruned": auto_pruned,
    "merge": merge,
    "manual-focus": manual_focus,
    "corpus": corpus,
}


def rarely_recent_file(rows: list[dict[str, Any]]) -> str:
    """The name of a file the window's first half works on that its last quarter mentions least:
    a focus topic whose matches are mostly old lines, which a budget would otherwise drop first."""
    recent = "\n".join(str(row) for row in rows[len(rows) * 3 // 4 :]).lower()
    names: list[str] = []
    for row in rows[: len(rows) // 2]:
        for call in row.get("tool_calls") or []:
            arguments = str((call.get("function") or {}).get("arguments", ""))
            for path in re.findall(r'"path": ?"([^"]+)"', arguments):
                name = path.rsplit("/", 1)[-1]
                if len(name) >= 5 and name not in names:
                    names.append(name)
    assert names, "the window's first half works on no file"
    return min(names, key=lambda name: recent.count(name.lower()))
