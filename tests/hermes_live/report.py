"""The live session's scorecard: per compaction, facts right/total, references resolved/total and
the projection time; and whether ``session_search`` showed the cited output. Written beside the
kept store (``report.json``) and printed at the end of the pytest run."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from facts import (
    KINDS,
    fact_tally,
    facts_after,
    lookup_check,
    projection_times_ms,
    resolved_references,
)
from live_run import CONTEXT_LENGTH, KEPT_RUNS, LiveRun


def scorecard(run: LiveRun, rows: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """The scorecard of a run as plain data."""
    times = projection_times_ms(run)
    compactions = []
    for index, projection in enumerate(run.projections, 1):
        facts = facts_after(run, index, rows)
        resolved, total = resolved_references(projection.body or "", rows)
        compactions.append(
            {
                "compaction": index,
                "turns": len(projection.turns),
                **fact_tally(facts, KINDS),
                "references_resolved": resolved,
                "references_total": total,
                "projection_ms": times[index - 1] if index <= len(times) else None,
            }
        )
    lookup = lookup_check(run, rows)
    return {
        "release": run.label,
        "hermes_exit_code": run.exit_code,
        "seconds": round(run.seconds, 1),
        "model_requests": len(run.model.exchanges),
        "context_length": CONTEXT_LENGTH,
        "compactions": compactions,
        "session_search": {"holds": lookup.holds, "detail": lookup.detail},
        "kept": str(KEPT_RUNS / run.label),
    }


def write(card: Mapping[str, Any]) -> None:
    """Writes the scorecard beside the kept store."""
    path = KEPT_RUNS / str(card["release"]) / "report.json"
    path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def text(card: Mapping[str, Any]) -> str:
    """The scorecard as a few lines for the test log."""
    lines = [
        f"live session on {card['release']}: Hermes exited {card['hermes_exit_code']} after "
        f"{card['seconds']} s, {card['model_requests']} model requests, "
        f"{len(card['compactions'])} compactions (kept in {card['kept']})",
    ]
    for c in card["compactions"]:
        ms = "?" if c["projection_ms"] is None else f"{c['projection_ms']:.0f} ms"
        lines.append(
            f"  compaction {c['compaction']}: {c['turns']} turns, facts {c['facts_right']}/"
            f"{c['facts_total']}, references {c['references_resolved']}/{c['references_total']}, "
            f"{ms}"
        )
    search = card["session_search"]
    lines.append(
        f"  session_search: {'shows' if search['holds'] else 'does not show'} the cited "
        f"output — {search['detail']}"
    )
    return "\n".join(lines)
