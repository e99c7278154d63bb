"""Stands between the plugin and ``vcc serve``, copying every JSON-RPC line to files.

Usage: ``python vcc_tee.py CAPTURE_DIR -- VCC_SERVE_ARGV...``. The test points ``VCC_BIN`` at a
small shell script that runs this, so the plugin starts it as its vcc executable; it starts the
real ``vcc serve`` and passes its standard input and output through unchanged, appending each line
to ``CAPTURE_DIR/<pid>.requests.jsonl`` (plugin to vcc) or ``<pid>.responses.jsonl`` (vcc to
plugin). Standard error is inherited. It exits with the server's exit code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import BinaryIO


def _pump(source: BinaryIO, sink: BinaryIO, copy: Path) -> None:
    with copy.open("ab") as record:
        for line in iter(source.readline, b""):
            record.write(line)
            record.flush()
            try:
                sink.write(line)
                sink.flush()
            except (BrokenPipeError, ValueError):
                return
    sink.close()


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: vcc_tee.py CAPTURE_DIR -- ARGV...", file=sys.stderr)
        return 2
    capture = Path(argv[0])
    child = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    signal.signal(signal.SIGTERM, lambda *_: child.terminate())
    pid = os.getpid()
    inbound = threading.Thread(
        target=_pump,
        args=(sys.stdin.buffer, child.stdin, capture / f"{pid}.requests.jsonl"),
        daemon=True,
    )
    inbound.start()
    _pump(child.stdout, sys.stdout.buffer, capture / f"{pid}.responses.jsonl")
    return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
