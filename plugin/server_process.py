"""One running ``vcc serve`` child and the JSON-RPC calls made to it.

Requests are written by a writer thread and responses read by a reader thread, so a caller only
waits on its own future: a child that stops reading or answering cannot block a caller past its
deadline. Standard error is drained on a third thread into the log, and its last lines are kept for
error messages. Neither output is buffered without limit: a response line longer than
``MAX_RESPONSE_BYTES`` breaks the protocol and ends the child, and standard-error lines are cut.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import logging
import os
import queue
import subprocess
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from .bounded_lines import Line, bounded_lines
from .bridge_errors import (
    BridgeCrashed,
    BridgeError,
    BridgeProtocolError,
    BridgeRemoteError,
    BridgeRequestError,
    BridgeTimeout,
)
from .deadline import Deadline

logger = logging.getLogger(__name__)

MAX_RESPONSE_BYTES = 16 * 1024 * 1024
"""The longest line the child may write to standard output. A ``project`` response holds a body
within its budget (at most 100,000 tokens) and an anchor index of at most 7,000 characters, a few
megabytes at worst; a longer line is a protocol error."""

STDERR_LINES_KEPT = 50
"""How many of the child's last standard-error lines error messages quote."""

STDERR_LINE_BYTES = 1000
"""How much of one standard-error line is logged and kept; the rest is dropped."""

WRITE_FAILURE_EXIT_WAIT = 1.0
"""Seconds to wait, after a request cannot be written, for the child's exit status to report."""

_STOP = object()


class ServerProcess:
    """A started ``vcc serve`` child. Thread-safe: any thread may ``call`` concurrently."""

    def __init__(self, argv: Sequence[str], *, max_message_bytes: int | None = None) -> None:
        env = {**os.environ, "DENO_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
        self._proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            # Its own session: a Ctrl-C meant for Hermes does not kill the child mid-request. It
            # still ends with Hermes, whose exit closes the child's standard input.
            start_new_session=True,
        )
        self.max_message_bytes = max_message_bytes
        self.server_info: dict[str, Any] = {}
        """The ``serverInfo`` the child answered ``initialize`` with (set by whoever sent it)."""
        self._lock = threading.Lock()
        self._pending: dict[int, Future[Any]] = {}
        self._ids = itertools.count(1)
        self._failure: BridgeError | None = None
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads = [
            self._start_thread(self._write_loop, "writer"),
            self._start_thread(self._read_loop, "reader"),
            self._start_thread(self._drain_stderr, "stderr"),
        ]

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self._proc.pid

    @property
    def alive(self) -> bool:
        """Whether the child runs and has not broken the protocol."""
        return self._failure is None and self._proc.poll() is None

    def call(self, method: str, params: Any, deadline: Deadline | float) -> Any:
        """Sends one request and waits for its result until ``deadline`` (or for that many seconds).

        Raises ``BridgeRemoteError`` for an error response, ``BridgeTimeout``, ``BridgeCrashed``,
        ``BridgeProtocolError``, or ``BridgeRequestError`` when the request cannot be sent at all.
        """
        deadline = Deadline.of(deadline)
        with self._lock:
            request_id = next(self._ids)
        line = _encode({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        if self.max_message_bytes is not None and len(line) > self.max_message_bytes:
            raise BridgeRequestError(
                f"{method} request is {len(line)} bytes; the server reads at most "
                f"{self.max_message_bytes}"
            )
        future: Future[Any] = Future()
        with self._lock:
            if self._failure is not None:
                raise self._failure
            self._pending[request_id] = future
        self._outbox.put(line)
        waited = deadline.remaining()
        try:
            return future.result(waited)
        except FutureTimeout:
            with self._lock:
                self._pending.pop(request_id, None)
            raise BridgeTimeout(f"{method} got no answer within {waited:.1f} s") from None

    def kill(self) -> None:
        """Ends the child at once (for a hung or misbehaving child)."""
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()

    def stop(self, grace: float = 2.0) -> int:
        """Ends the child politely: closes its standard input, then SIGTERM, then SIGKILL, waiting
        ``grace`` seconds before each escalation. Returns its exit code."""
        self._outbox.put(_STOP)
        for escalate in (self._proc.terminate, self._proc.kill):
            try:
                return self._proc.wait(grace)
            except subprocess.TimeoutExpired:
                escalate()
        return self._proc.wait()

    def stderr_tail(self) -> str:
        """The child's last standard-error lines, one per line."""
        return "\n".join(self._stderr_tail)

    def _start_thread(self, target: Callable[[], None], role: str) -> threading.Thread:
        thread = threading.Thread(target=target, name=f"vcc-{role}-{self.pid}", daemon=True)
        thread.start()
        return thread

    def _write_loop(self) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        while (line := self._outbox.get()) is not _STOP:
            try:
                stdin.write(line)
                stdin.flush()
            except (OSError, ValueError) as error:
                # A closed pipe usually means the child is gone: say how it ended when it has.
                try:
                    code = self._proc.wait(WRITE_FAILURE_EXIT_WAIT)
                except subprocess.TimeoutExpired:
                    self._fail(BridgeCrashed(f"cannot write to vcc: {error}"))
                else:
                    self._fail(BridgeCrashed(f"vcc {_ending(code)}"))
                return
        with contextlib.suppress(OSError):
            stdin.close()

    def _read_loop(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        for line in bounded_lines(stdout.fileno(), MAX_RESPONSE_BYTES, head_bytes=0):
            message = None if line.cut else _decode(line.data)
            if message is None:
                self._fail(BridgeProtocolError(_refusal(line)))
                self.kill()
                return
            self._settle(message)
        code = self._proc.wait()
        self._threads[2].join(1.0)
        tail = self.stderr_tail()
        self._fail(
            BridgeCrashed(f"vcc {_ending(code)}" + (f"; its last output:\n{tail}" if tail else ""))
        )

    def _settle(self, message: dict[str, Any]) -> None:
        request_id = message.get("id")
        with self._lock:
            future = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
        error = message.get("error")
        details = error if isinstance(error, dict) else {}
        given_code = details.get("code")
        code = given_code if isinstance(given_code, int) else 0
        if future is None:
            # Only codes and ids: a server's message could quote a request, that is, the transcript.
            if request_id is None and error is not None:
                logger.warning("vcc: the server could not read a request (error %d)", code)
            elif isinstance(request_id, int):
                logger.debug("vcc: dropping a late response to request %d", request_id)
            else:
                logger.debug("vcc: dropping a response to no request of this client")
            return
        if "error" in message:
            future.set_exception(
                BridgeRemoteError(code, str(details.get("message", "")), details.get("data"))
            )
        else:
            future.set_result(message.get("result"))

    def _drain_stderr(self) -> None:
        stderr = self._proc.stderr
        assert stderr is not None
        for line in bounded_lines(stderr.fileno(), STDERR_LINE_BYTES, STDERR_LINE_BYTES):
            text = line.data.decode("utf-8", "replace").rstrip() + (" [cut]" if line.cut else "")
            self._stderr_tail.append(text)
            logger.debug("%s", text)

    def _fail(self, error: BridgeError) -> None:
        with self._lock:
            if self._failure is None:
                self._failure = error
            pending, self._pending = self._pending, {}
        self._outbox.put(_STOP)
        for future in pending.values():
            future.set_exception(error)


def _ending(code: int) -> str:
    """How a child with exit status ``code`` ended, in words."""
    return f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"


def _encode(message: dict[str, Any]) -> bytes:
    try:
        text = json.dumps(message, separators=(",", ":"), allow_nan=False, default=str)
    except (TypeError, ValueError) as error:
        raise BridgeRequestError(f"cannot encode the request as JSON: {error}") from None
    return text.encode("ascii") + b"\n"


def _refusal(line: Line) -> str:
    """Why a line on stdout breaks the protocol. Only text that is not JSON is quoted: a runtime's
    or another program's message helps find a wrong executable, while JSON may carry a request."""
    if line.cut:
        return f"vcc wrote a line of more than {MAX_RESPONSE_BYTES} bytes to stdout"
    try:
        json.loads(line.data)
    except (ValueError, RecursionError):
        preview = line.data[:120].decode("utf-8", "replace").rstrip()
        return f"vcc wrote a non-protocol line to stdout: {preview!r}"
    return f"vcc wrote {len(line.data)} bytes of JSON to stdout that are not a JSON-RPC response"


def _decode(raw: bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    if "result" not in message and "error" not in message:
        return None
    return message
