"""A story's scorecard (per compaction: facts right/total, references resolved/total, ``[tN]``
on stored rows, omission-count errors, projection time; the largest request against the context
window), written beside the kept run (``report.json``) and printed at the end of the pytest run.
With ``LIVE_FINDINGS_DIR`` set, every window and projection of a story with a wrong fact is
saved there too, by release and seed, with the wrong facts."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from facts import fact_tally, projection_times_ms, resolved_references
from live_run import CONTEXT_LENGTH
from story_facts import KINDS, OMISSIONS, POSITIONAL, CheckedStory, largest_request
from story_run import StoryRun

FINDINGS_DIR = "LIVE_FINDINGS_DIR"
CARDS: list[str] = []
"""The scorecards of the stories played in this run, as text, for the terminal summary."""


def scorecard(checked: CheckedStory) -> dict[str, Any]:
    """The scorecard of a checked story as plain data."""
    run, record = checked.run, checked.record
    times = projection_times_ms(run)
    compactions = []
    pairs = zip(run.projections, checked.facts, strict=True)
    for index, (projection, facts) in enumerate(pairs, 1):
        resolved, total = resolved_references(projection.body or "", record.rows)
        compactions.append(
            {
                "compaction": index,
                "turns": len(projection.turns),
                "focus": projection.request.get("params", {}).get("focus"),
                **fact_tally(facts, KINDS),
                "wrong": [f"{f.kind}: {f.statement} — {f.problem}" for f in facts if not f.holds],
                "references_resolved": resolved,
                "references_total": total,
                "positional_on_stored": sum(not f.holds for f in facts if f.kind == POSITIONAL),
                "omission_errors": sum(not f.holds for f in facts if f.kind == OMISSIONS),
                "projection_ms": times[index - 1] if index <= len(times) else None,
            }
        )
    return {
        "release": run.label,
        "seed": run.story.seed,
        "via": run.via,
        "yolo": run.story.yolo,
        "turns": [
            {"mode": t.mode, "exit_code": t.exit_code, "seconds": round(t.seconds, 1)}
            for t in run.turns
        ],
        "seconds": round(run.seconds, 1),
        "model_requests": len(run.model.exchanges),
        "largest_request_tokens": largest_request(run),
        "context_length": CONTEXT_LENGTH,
        "skipped_steps": run.player.skipped,
        "compactions": compactions,
        "kept": str(run.kept),
    }


def write(card: Mapping[str, Any], run: StoryRun) -> None:
    """Writes the scorecard beside the kept run, and the story's captures where
    ``LIVE_FINDINGS_DIR`` says when a fact is wrong."""
    text = json.dumps(card, indent=2, ensure_ascii=False) + "\n"
    (run.kept / "report.json").write_text(text, encoding="utf-8")
    findings = os.environ.get(FINDINGS_DIR)
    if not findings or not any(c["wrong"] for c in card["compactions"]):
        return
    target = Path(findings) / run.label / run.kept.name
    target.mkdir(parents=True, exist_ok=True)
    (target / "report.json").write_text(text, encoding="utf-8")
    for index, projection in enumerate(run.projections, 1):
        (target / f"compaction-{index}.request.json").write_text(
            json.dumps(projection.request, indent=1, ensure_ascii=False), encoding="utf-8"
        )
        (target / f"compaction-{index}.response.json").write_text(
            json.dumps(projection.response, indent=1, ensure_ascii=False), encoding="utf-8"
        )
        (target / f"compaction-{index}.projection.md").write_text(
            projection.body or "", encoding="utf-8"
        )


def text(card: Mapping[str, Any]) -> str:
    """The scorecard as a few lines for the test log."""
    turns = ", ".join(f"{t['mode']} {t['seconds']} s" for t in card["turns"])
    lines = [
        f"story {card['seed']} via {card['via']} on {card['release']} "
        f"({'--yolo' if card['yolo'] else 'approvals'}"
        f"): {card['seconds']} s ({turns}), {card['model_requests']} model requests, largest "
        f"request {card['largest_request_tokens']}/{card['context_length']} tokens, "
        f"{len(card['compactions'])} compactions (kept in {card['kept']})"
    ]
    for c in card["compactions"]:
        ms = "?" if c["projection_ms"] is None else f"{c['projection_ms']:.0f} ms"
        focus = f", focus {c['focus']!r}" if c["focus"] else ""
        lines.append(
            f"  compaction {c['compaction']}{focus}: {c['turns']} turns, facts {c['facts_right']}/"
            f"{c['facts_total']}, references {c['references_resolved']}/{c['references_total']}, "
            f"[tN] on stored rows {c['positional_on_stored']}, omission errors "
            f"{c['omission_errors']}, {ms}"
        )
    return "\n".join(lines)
