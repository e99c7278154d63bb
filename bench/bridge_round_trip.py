"""Times the bridge as the Hermes plugin uses it: a Python caller's round trip through a running
``vcc serve`` for a generated ~75k-token window, and the time from spawning ``vcc serve`` to its
answer to ``initialize``.

Run from the repository root (the window is generated, never read from a session):

    python3 bench/bridge_round_trip.py                  # vcc serve from source (deno run main.ts)
    python3 bench/bridge_round_trip.py --entry dist/vcc.js
    python3 bench/bridge_round_trip.py --command /usr/local/bin/vcc

It prints milliseconds: median, p90, p99, min and max over the runs. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from plugin.binary import DENO_RUN, ServerCommand, deno_binary  # noqa: E402 - needs the path set above
from plugin.bridge import BridgeClient  # noqa: E402
from plugin.manifest import plugin_version  # noqa: E402
from plugin.server_process import ServerProcess  # noqa: E402

TOKENS_PER_CHAR = 0.25


def generated_window(target_tokens: int, seed: int = 7) -> list[dict[str, Any]]:
    """A coding session of user asks, terminal and file tool calls with JSON results, about
    ``target_tokens`` long at four characters per token; the same seed gives the same window."""
    rng = random.Random(seed)
    words = ["build", "test", "module", "error", "fix", "path", "config", "value", "retry"]
    messages: list[dict[str, Any]] = []
    row = 1000
    while len(json.dumps(messages)) * TOKENS_PER_CHAR < target_tokens:
        n = len(messages)
        messages.append(
            {
                "role": "user",
                "content": f"Step {n}: " + " ".join(rng.choices(words, k=30)),
                "_row_id": row,
            }
        )
        command = f"pytest -q tests/test_{rng.choice(words)}.py"
        path = f"/home/u/proj/src/{rng.choice(words)}/{rng.choice(words)}.py"
        calls = [
            (
                "terminal",
                {"command": command},
                {
                    "output": "\n".join(" ".join(rng.choices(words, k=12)) for _ in range(40)),
                    "exit_code": rng.choice([0, 0, 1, 2]),
                },
            ),
            (
                "read_file",
                {"path": path},
                {
                    "content": "\n".join(
                        f"{i}|    {' '.join(rng.choices(words, k=8))}" for i in range(60)
                    )
                },
            ),
        ]
        for index, (tool, arguments, result) in enumerate(calls):
            call_id = f"call_{row:08x}{index}"
            messages.append(
                {
                    "role": "assistant",
                    "content": "Next: " + " ".join(rng.choices(words, k=15)),
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": tool, "arguments": json.dumps(arguments)},
                        }
                    ],
                    "_row_id": row + 1 + 2 * index,
                }
            )
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "tool_name": tool,
                    "content": json.dumps(result),
                    "_row_id": row + 2 + 2 * index,
                }
            )
        row += 10
    return messages


def distribution(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    return (
        f"median {statistics.median(ordered):.2f}  p90 {at(0.9):.2f}  p99 {at(0.99):.2f}  "
        f"min {ordered[0]:.2f}  max {ordered[-1]:.2f}  (n={len(ordered)})"
    )


def spawn_to_ready(argv: tuple[str, ...], runs: int) -> list[float]:
    """Milliseconds from spawning the server to its answer to ``initialize``, one per run."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        server = ServerProcess(argv)
        server.call("initialize", {"protocolVersion": 1}, 30.0)
        samples.append((time.perf_counter() - started) * 1000)
        server.stop()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--entry", default="main.ts", help="entry point run with deno (main.ts)")
    source.add_argument("--command", help="an executable to run as `COMMAND serve` instead")
    parser.add_argument("--tokens", type=int, default=75_000, help="window size (75000)")
    parser.add_argument("--runs", type=int, default=200, help="timed round trips (200)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed round trips first (20)")
    parser.add_argument("--spawns", type=int, default=20, help="timed server starts (20)")
    args = parser.parse_args()

    if args.command:
        argv: tuple[str, ...] = (args.command, "serve")
    else:
        deno = deno_binary(shutil.which("deno") or str(REPO / "node_modules" / ".bin" / "deno"))
        argv = (deno, *DENO_RUN, str(REPO / args.entry), "serve")

    window = generated_window(args.tokens)
    size = len(json.dumps(window))
    print(f"server: {' '.join(argv)}")
    tokens = size * TOKENS_PER_CHAR / 1000
    print(f"window: {len(window)} messages, {size / 1000:.0f} KB JSON, ~{tokens:.0f}k tokens")

    print(f"spawn to ready (ms): {distribution(spawn_to_ready(argv, args.spawns))}")

    client = BridgeClient(lambda: ServerCommand(argv, "bench"), expected_version=plugin_version())
    params = {"messages": window, "session_id": "bench", "budget_tokens": 8000}
    try:
        for _ in range(args.warmup):
            client.project(params, 60.0)
        samples = []
        for _ in range(args.runs):
            started = time.perf_counter()
            result = client.project(params, 60.0)
            samples.append((time.perf_counter() - started) * 1000)
    finally:
        client.close()
    print(f"projection: {len(result['body'])} chars")
    print(f"round trip (ms): {distribution(samples)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
