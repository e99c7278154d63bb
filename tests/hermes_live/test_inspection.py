"""`vcc preview`, `vcc stats` and `vcc bench proofs --db` on the store the live session just left,
checked against what the running Hermes release itself makes of that store (``hermes_view.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hermes_view import hold_back, next_cut, read_holds, session_id, store_copy
from live_run import CONTEXT_LENGTH, REPO, LiveRun, _deno

VCC_TIMEOUT_SECONDS = 120


def vcc(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``vcc ARGS`` from this checkout, its cache directory in ``cache``."""
    return subprocess.run(
        [_deno(), "run", "--quiet", "-A", str(REPO / "main.ts"), *args],
        capture_output=True,
        text=True,
        timeout=VCC_TIMEOUT_SECONDS,
        cwd=REPO,
        env={**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": str(cache)},
        check=False,
    )


def vcc_json(args: list[str], cache: Path) -> tuple[int, Any]:
    done = vcc([*args, "--json"], cache)
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.fixture(scope="module")
def session(live: LiveRun) -> str:
    return session_id(live.store)


def test_preview_cuts_where_hermes_would_compact_next(
    live: LiveRun, session: str, tmp_path: Path
) -> None:
    expected = next_cut(live.store, session, CONTEXT_LENGTH)
    preview = ["preview", session, "--db", str(live.store), "--context-tokens", str(CONTEXT_LENGTH)]
    code, report = vcc_json(preview, tmp_path)
    assert code == 0
    if expected is None:
        assert report["window"] is None
        return
    cut = report["cut"]
    assert cut["windowRowIds"] == expected.window, "the rows Hermes would summarise next"
    assert cut["tailFirstRowId"] == (expected.tail[0] if expected.tail else None)
    assert cut["tailRows"] == len(expected.tail)
    assert cut["mergedPrevious"] == (expected.previous is not None)
    text = vcc(preview, tmp_path)
    assert text.returncode == 0
    assert "\n## " in text.stdout, f"a summary is printed: {text.stdout[:500]!r}"
    assert f"({len(expected.window)} of " in text.stderr


def expected_holds(state: Any, release_has_breaker: bool) -> set[str]:
    """What holds automatic compaction or its summary step back, as Hermes's gates read the
    state its getters return: a live cooldown; 0.22's breaker at two ineffective compactions; two
    fallback summaries in a row (0.22 benches the summary step, 0.19 stops compaction)."""
    holds = set()
    if state.cooldown:
        holds.add("automatic compaction")
    if (state.ineffective_count or 0) >= 2:
        holds.add("automatic compaction")
    if state.fallback_streak >= 2:
        holds.add("the summary step" if release_has_breaker else "automatic compaction")
    return holds


def held_back(stats: dict[str, Any], session: str) -> set[str]:
    return {
        hold["blocks"]
        for entry in stats["held"]
        if entry["sessionId"] == session
        for hold in entry["holds"]
        if hold["active"] and hold["blocks"]
    }


def test_stats_names_what_hermes_holds_back(live: LiveRun, session: str, tmp_path: Path) -> None:
    with store_copy(live.store) as copy:
        state = read_holds(copy, session)
        has_breaker = state.ineffective_count is not None
        code, stats = vcc_json(["stats", "--db", str(copy)], tmp_path)
        assert code == 0
        assert held_back(stats, session) == expected_holds(state, has_breaker)

        # The same store after Hermes's own setters put the session into its block.
        until = time.time() + 300
        hold_back(copy, session, until)
        state = read_holds(copy, session)
        assert expected_holds(state, has_breaker) == {"automatic compaction"}
        code, stats = vcc_json(["stats", "--db", str(copy)], tmp_path)
        assert held_back(stats, session) == {"automatic compaction"}
        (entry,) = stats["held"]
        untils = sorted(hold["until"] for hold in entry["holds"] if hold["until"] is not None)
        assert untils and all(abs(found - until) < 1 for found in untils), entry
        reasons = " ".join(hold["why"] for hold in entry["holds"])
        assert "summary model timed out" in reasons
        assert ("did not shrink the context" if has_breaker else "fallback summaries") in reasons
        text = vcc(["stats", "--db", str(copy)], tmp_path).stdout
        assert f"  {session}  automatic compaction held back until " in text


def test_bench_proofs_db_passes_with_its_negative_control(live: LiveRun, tmp_path: Path) -> None:
    proofs = [
        "bench",
        "proofs",
        "--db",
        str(live.store),
        "--context-tokens",
        str(CONTEXT_LENGTH),
    ]
    code, summary = vcc_json(proofs, tmp_path)
    assert code == 0, summary.get("windows", {}).get("failed")
    assert summary["holds"]
    for totals in (summary["windows"], summary["storedSummaries"]):
        assert totals["linesHeld"] == totals["lines"], totals["failed"]
        assert totals["refsResolved"] == totals["refs"]
        assert totals["caught"] == totals["planted"]
    assert summary["windows"]["planted"] > 0, "the negative control planted words somewhere"
    distinct = {projection.body for projection in live.projections}
    assert summary["storedSummaries"]["windows"] == len(distinct), "one per distinct projection"
