"""What the running Hermes release itself makes of a kept session store: where its compressor
would cut the session next, and the compaction state its own store API reads. The oracles of
``test_inspection.py``; they work on a copy of the store, which Hermes's store class may migrate.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.context_compressor import ContextCompressor
from hermes_state import SessionDB
from live_run import _keep


@dataclass(frozen=True)
class HermesCut:
    """The window Hermes would hand to the summary step next, by stored row id."""

    window: list[int]
    tail: list[int]
    previous: str | None


@contextmanager
def store_copy(store: Path) -> Iterator[Path]:
    """A consistent single-file copy of ``store`` in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="vcc-hermes-view-") as scratch:
        yield _keep(store, Path(scratch) / "state.db")


def session_id(store: Path) -> str:
    """The one session of a live run's store."""
    connection = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    try:
        (found,) = connection.execute("SELECT id FROM sessions").fetchall()
    finally:
        connection.close()
    return str(found[0])


def _live_rows(copy: Path, session: str) -> list[dict[str, Any]]:
    """The session's live transcript as Hermes loads it on resume, each row given its id."""
    conversation = SessionDB(db_path=copy).get_messages_as_conversation(session)
    connection = sqlite3.connect(copy)
    try:
        stored = connection.execute(
            "SELECT id, role FROM messages WHERE session_id = ? AND active = 1 ORDER BY id",
            (session,),
        ).fetchall()
    finally:
        connection.close()
    assert [role for _, role in stored] == [m.get("role") for m in conversation], (
        "Hermes loads the live rows in id order"
    )
    for (row_id, _), message in zip(stored, conversation, strict=True):
        message["_row_id"] = row_id
    return conversation


def next_cut(store: Path, session: str, context_length: int) -> HermesCut | None:
    """Where this release's compressor would cut the session next, in the process that compacted
    it (so past its first compaction): its own pruning, boundaries and handoff scan, none of its
    summary step. ``None`` when it would find nothing to summarise."""
    with store_copy(store) as copy:
        rows = _live_rows(copy, session)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "system prompt"}, *rows]
    compressor = ContextCompressor(
        model="scripted-model", config_context_length=context_length, quiet_mode=True
    )
    compressor.compression_count = 1
    if len(messages) <= compressor._protect_head_size(messages) + 4:
        return None
    pruned, _ = compressor._prune_old_tool_results(
        messages,
        protect_tail_count=compressor.protect_last_n,
        protect_tail_tokens=compressor.tail_token_budget,
    )
    if hasattr(compressor, "_compress_window"):  # 0.22
        start, end = compressor._compress_window(pruned)
        if start >= end:
            return None
        scan = compressor._scan_window_handoffs(pruned, start, end, pruned[start:end])
        window, tail_start = scan.turns_to_summarize, scan.tail_start
        previous = compressor._previous_summary
    else:  # 0.19
        start = compressor._align_boundary_forward(pruned, compressor._protect_head_size(pruned))
        end = compressor._find_tail_cut_by_tokens(pruned, start)
        if start >= end:
            return None
        index, body = compressor._find_latest_context_summary(pruned, 1, end)
        window = pruned[max(start, index + 1) : end] if index is not None else pruned[start:end]
        tail_start, previous = end, body or None
    return HermesCut(
        window=[int(m["_row_id"]) for m in window],
        tail=[int(m["_row_id"]) for m in pruned[tail_start:]],
        previous=previous,
    )


@dataclass(frozen=True)
class HermesHolds:
    """The compaction state Hermes's own store API reads for a session (``None``: the release's
    schema has no such column)."""

    cooldown: dict[str, Any] | None
    fallback_streak: int
    ineffective_count: int | None
    recovery_deadline: float | None
    overload_streak: int | None


def read_holds(copy: Path, session: str) -> HermesHolds:
    """The session's compaction state through this release's ``SessionDB`` getters."""
    db = SessionDB(db_path=copy)

    def optional(name: str) -> Any:
        getter: Callable[[str], Any] | None = getattr(db, name, None)
        return getter(session) if getter else None

    return HermesHolds(
        cooldown=db.get_compression_failure_cooldown(session),
        fallback_streak=db.get_compression_fallback_streak(session),
        ineffective_count=optional("get_compression_ineffective_count"),
        recovery_deadline=optional("get_compression_recovery_deadline"),
        overload_streak=optional("get_compression_overload_streak"),
    )


def hold_back(copy: Path, session: str, until: float) -> None:
    """Puts the session into the state that stops automatic compaction, with this release's own
    setters: 0.22's breaker (two ineffective compactions, retry at ``until``); on 0.19, which keeps
    that count in memory only, two fallback summaries in a row. Plus a summary-failure cooldown
    until ``until``."""
    db = SessionDB(db_path=copy)
    if hasattr(db, "set_compression_ineffective_count"):
        db.set_compression_ineffective_count(session, 2)
        db.set_compression_recovery_deadline(session, until)
    else:
        db.set_compression_fallback_streak(session, 2)
    db.record_compression_failure_cooldown(session, until, "summary model timed out")
