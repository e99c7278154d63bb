"""A stand-in for ``vcc serve``, for the bridge client's failure tests: ``fake_server.py MODE ...``.

Modes: ``garbage [LINE]`` writes ``LINE`` (by default a line of text), which is not JSON-RPC, to
stdout when the first request arrives;
``hang`` reads every request and never answers; ``silent-exit`` exits with code 3 after writing
a line to stderr when the first request arrives; ``answer VERSION DELAY`` answers every request as
a server of ``VERSION`` would, each after ``DELAY`` seconds, with a fixed body and an empty anchor
index, its anchor builder following the Unicode version of the Python running it; ``flood
VERSION STREAM`` first writes ``FLOOD_BYTES`` without a newline to ``stdout`` or ``stderr``, then
``STDERR_LINES`` short lines to stderr, then answers as ``answer``; ``quote VERSION`` answers
``initialize`` as ``answer``, and any other request with an error response without id whose
message quotes the request, then with the request itself, which is no response.

With ``FAKE_SERVER_STARTS`` set, each start appends a line to the file it names.
"""

from __future__ import annotations

import json
import os
import sys
import time
import unicodedata
from typing import Any

FLOOD_BYTES = 400 * 1024 * 1024
"""How much ``flood`` writes: far more than any client may hold."""

STDERR_LINES = 200
"""How many short lines ``flood`` writes to stderr after the flood."""

BODY = "## Goal\nthe fake server's projection\n"
"""The ``body`` of every ``project`` result."""


def main(mode: str, *args: str) -> int:
    if starts := os.environ.get("FAKE_SERVER_STARTS"):
        with open(starts, "a", encoding="utf-8") as record:
            record.write(f"{os.getpid()}\n")
    version = args[0] if args else ""
    delay = float(args[1]) if mode == "answer" else 0.0
    if mode == "flood":
        flood(sys.stdout if args[1] == "stdout" else sys.stderr)
    for line in sys.stdin:
        if mode == "garbage":
            sys.stdout.write(args[0] if args else "Download https://example.invalid/denort.zip")
            sys.stdout.write("\n")
            sys.stdout.flush()
        elif mode == "silent-exit":
            sys.stderr.write("fatal: cannot load the projector\n")
            return 3
        elif mode == "quote" and json.loads(line).get("method") != "initialize":
            error = {"code": -32700, "message": f"Parse error: {line.strip()}"}
            write({"jsonrpc": "2.0", "id": None, "error": error})
            sys.stdout.write(line)
            sys.stdout.flush()
        elif mode in ("answer", "flood", "quote"):
            time.sleep(delay)
            answer(json.loads(line), version)
    return 0


def flood(stream: Any) -> None:
    chunk = b"x" * (1024 * 1024)
    try:
        for _ in range(FLOOD_BYTES // len(chunk)):
            stream.buffer.write(chunk)
        stream.buffer.flush()
        sys.stderr.writelines(f"line {n}\n" for n in range(STDERR_LINES))
        sys.stderr.flush()
    except BrokenPipeError:
        sys.exit(0)


def answer(request: dict[str, Any], version: str) -> None:
    method = request.get("method")
    if method == "initialize":
        result: Any = {
            "protocolVersion": 1,
            "serverInfo": {
                "name": "vcc",
                "version": version,
                "anchorUnicodeVersion": unicodedata.unidata_version,
            },
            "limits": {"maxMessageBytes": 64 * 1024 * 1024},
        }
    elif method == "anchors":
        result = {"index": ""}
    else:
        result = {"body": BODY, "stats": {}}
    write({"jsonrpc": "2.0", "id": request.get("id"), "result": result})


def write(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
