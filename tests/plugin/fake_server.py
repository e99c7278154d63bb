"""A misbehaving stand-in for ``vcc serve``, for the bridge client's failure tests.

Modes: ``garbage`` writes a line that is not JSON-RPC to stdout when the first request arrives;
``hang`` reads every request and never answers; ``silent-exit`` exits with code 3 after writing
a line to stderr when the first request arrives.
"""

from __future__ import annotations

import sys


def main(mode: str) -> int:
    for _line in sys.stdin:
        if mode == "garbage":
            sys.stdout.write("Download https://example.invalid/denort.zip\n")
            sys.stdout.flush()
        elif mode == "silent-exit":
            sys.stderr.write("fatal: cannot load the projector\n")
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
