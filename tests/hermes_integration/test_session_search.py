"""The way back from a summary line to the full message: after Hermes committed each compaction to
the session store (old rows archived, the summary and the tail written as new rows), Hermes's
``session_search`` tool in scroll mode, given a ``[#N]`` of the summary, returns message N."""

from __future__ import annotations

import json
import re
from typing import Any

from scenarios import Compaction
from summary_checks import references
from tools.session_search_tool import session_search

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def scroll(compaction: Compaction, row_id: int) -> dict[str, Any]:
    """What an agent gets from ``session_search(session_id=…, around_message_id=row_id)``."""
    answer: dict[str, Any] = json.loads(
        session_search(
            session_id=compaction.session_id,
            around_message_id=row_id,
            window=1,
            db=compaction.store,
        )
    )
    return answer


def test_session_search_returns_every_cited_message(compaction: Compaction) -> None:
    cited = sorted(set().union(*(references(done.summary) for done in compaction.passes)))
    assert cited
    problems = []
    for row_id in cited:
        answer = scroll(compaction, row_id)
        anchors = [m for m in answer.get("messages", []) if m.get("anchor")]
        if not answer.get("success") or len(anchors) != 1:
            problems.append(f"[#{row_id}]: {answer.get('error') or answer}")
            continue
        found, stored = anchors[0], compaction.stored[row_id]
        if found.get("id") != row_id or found.get("role") != stored["role"]:
            problems.append(f"[#{row_id}]: got row {found.get('id')} ({found.get('role')})")
        elif not _same_content(found.get("content"), stored.get("content")):
            problems.append(f"[#{row_id}]: content differs from the stored message")
    assert problems == []


def _same_content(found: Any, stored: Any) -> bool:
    """The same message text; releases that strip terminal escape sequences from what the tool
    returns may do so."""
    if not isinstance(stored, str):
        return found == stored or found == json.dumps(stored, ensure_ascii=False)
    return isinstance(found, str) and _ANSI.sub("", found) == _ANSI.sub("", stored)
