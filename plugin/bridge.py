"""The client of ``vcc serve``: one child per process, shared by every engine and thread.

It starts the child on first use and checks its version, restarts it after a crash with a growing
delay, and after repeated failures stops trying for a while (a circuit breaker) so compactions fall
back quickly instead of waiting on a broken executable. The breaker holds for one executable: a
changed one (another command, or a file it names replaced or rebuilt) is tried at once. Every wait
of a call, starting the child included, ends by the caller's deadline.
"""

from __future__ import annotations

import atexit
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from .binary import ServerCommand
from .bridge_errors import (
    BridgeError,
    BridgeRemoteError,
    BridgeRequestError,
    BridgeTimeout,
    BridgeUnavailable,
    BridgeVersionMismatch,
)
from .deadline import Deadline
from .server_process import ServerProcess

logger = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
"""The bridge protocol version this client speaks."""


class BridgeClient:
    """Calls ``vcc serve``, (re)starting it as needed. Thread-safe.

    ``locate`` returns the command to start; it is asked again before every start, so a fixed
    install is picked up after a failure. A child counts as failed when it crashes, hangs past a
    deadline, breaks the protocol or fails its handshake. Failures are counted for one executable:
    the located command and the size, modification time and inode of every file it names. After
    ``max_failures`` failures in a row, or one version mismatch, that executable is not started for
    ``open_seconds``; restarts before then wait ``backoff_seconds`` doubled per failure, at most
    ``max_backoff_seconds``, counted from the failure. A different executable starts afresh.

    Each call takes a deadline (or a timeout in seconds): waiting for another thread's start, the
    backoff, the handshake (at most ``start_timeout`` of it) and the answer all end by it, and a
    wait that cannot fit in what is left is not begun.
    """

    def __init__(
        self,
        locate: Callable[[], ServerCommand],
        *,
        expected_version: str,
        start_timeout: float = 10.0,
        max_failures: int = 5,
        open_seconds: float = 300.0,
        backoff_seconds: float = 0.25,
        max_backoff_seconds: float = 5.0,
    ) -> None:
        self._locate = locate
        self._expected_version = expected_version
        self._start_timeout = start_timeout
        self._max_failures = max_failures
        self._open_seconds = open_seconds
        self._backoff_seconds = backoff_seconds
        self._max_backoff_seconds = max_backoff_seconds
        self._lock = threading.Lock()
        self._server: ServerProcess | None = None
        self._failed_server: ServerProcess | None = None
        self._executable: tuple[object, ...] | None = None
        self._failures = 0
        self._last_error: BridgeError | None = None
        self._next_start = 0.0

    @property
    def server_pid(self) -> int | None:
        """Process id of the running child, if any."""
        server = self._server
        return server.pid if server is not None and server.alive else None

    def project(self, params: Mapping[str, Any], deadline: Deadline | float) -> dict[str, Any]:
        """Projects a window: ``params`` are the ``project`` method's, the result has ``body`` and
        ``stats``. Raises a ``BridgeError`` subclass on any failure."""
        result = self.call("project", dict(params), deadline)
        if not isinstance(result, dict) or not isinstance(result.get("body"), str):
            raise BridgeRemoteError(0, "the project result has no body")
        return result

    def anchors(self, messages: list[dict[str, Any]], deadline: Deadline | float) -> str:
        """Hermes's anchor index of ``messages``, built by vcc (the ``anchors`` method). Raises a
        ``BridgeError`` subclass on any failure."""
        result = self.call("anchors", {"messages": messages}, deadline)
        if not isinstance(result, dict) or not isinstance(result.get("index"), str):
            raise BridgeRemoteError(0, "the anchors result has no index")
        return str(result["index"])

    def server_info(self, deadline: Deadline | float) -> dict[str, Any]:
        """The ``serverInfo`` of the running child's ``initialize`` answer (name, version, the
        Unicode version of its anchor builder), starting the child first if needed, by
        ``deadline``. Raises a ``BridgeError`` subclass on any failure."""
        return dict(self._running_server(Deadline.of(deadline)).server_info)

    def call(self, method: str, params: Any, deadline: Deadline | float) -> Any:
        """Makes one JSON-RPC call, starting the server first if needed, all by ``deadline``."""
        deadline = Deadline.of(deadline)
        server = self._running_server(deadline)
        _require_time(deadline, method)
        try:
            result = server.call(method, params, deadline)
        except (BridgeRemoteError, BridgeRequestError):
            raise
        except BridgeError as error:
            self._record_failure(server, error)
            raise
        self._record_success()
        return result

    def close(self) -> None:
        """Stops the child: closes its input, then SIGTERM, then SIGKILL."""
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            server.stop()

    def _running_server(self, deadline: Deadline) -> ServerProcess:
        if not self._lock.acquire(timeout=deadline.remaining()):
            raise BridgeTimeout("no time left while another call was starting vcc")
        try:
            server = self._server
            if server is not None and server.alive:
                return server
            if server is not None and server is not self._failed_server:
                self._count_failure(server, BridgeError("vcc exited between requests"))
            self._server = self._start(deadline)
            return self._server
        finally:
            self._lock.release()

    def _start(self, deadline: Deadline) -> ServerProcess:
        """Starts and handshakes a child; called with the lock held."""
        try:
            command = self._locate()
        except Exception as error:
            raise BridgeUnavailable(str(error)) from None
        self._forget_failures_of_another(command)
        wait = self._next_start - time.monotonic()
        if wait > 0 and (self._failures >= self._max_failures or wait >= deadline.remaining()):
            raise BridgeUnavailable(
                f"not starting vcc for another {wait:.1f} s after {self._failures} failures in a "
                f"row; last: {self._last_error}"
            )
        if wait > 0:
            time.sleep(wait)
        _require_time(deadline, "starting vcc")
        logger.info("vcc: starting %s (found via %s)", " ".join(command.argv), command.origin)
        try:
            server = ServerProcess(command.argv)
        except OSError as error:
            failure = BridgeUnavailable(f"cannot start {command.argv[0]}: {error}")
            self._count_failure(None, failure)
            raise failure from None
        try:
            info = server.call(
                "initialize",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "clientInfo": {"name": "vcc-hermes-plugin", "version": self._expected_version},
                },
                deadline.within(self._start_timeout),
            )
            self._check_handshake(info, command)
        except BridgeError as error:
            server.kill()
            # A wrong version will not fix itself by restarting: stop trying it at once.
            self._count_failure(server, error, trip=isinstance(error, BridgeVersionMismatch))
            raise
        server.max_message_bytes = _max_message_bytes(info)
        server.server_info = dict(info["serverInfo"])  # checked by _check_handshake
        return server

    def _forget_failures_of_another(self, command: ServerCommand) -> None:
        """Starts the failure count afresh when ``command`` is not the executable that failed."""
        executable = _executable(command)
        if executable == self._executable:
            return
        if self._failures:
            logger.info("vcc: %s is not the executable that failed; trying it", command.argv[0])
        self._executable = executable
        self._failures = 0
        self._last_error = None
        self._next_start = 0.0

    def _check_handshake(self, info: Any, command: ServerCommand) -> None:
        info = info if isinstance(info, dict) else {}
        server_info = info.get("serverInfo")
        version = server_info.get("version") if isinstance(server_info, dict) else None
        if info.get("protocolVersion") != PROTOCOL_VERSION or version != self._expected_version:
            raise BridgeVersionMismatch(
                f"{' '.join(command.argv)} is vcc {version}, but this plugin is "
                f"{self._expected_version}; install the matching plugin with "
                f"`vcc hermes install` or point VCC_BIN at vcc {self._expected_version}"
            )

    def _record_failure(self, server: ServerProcess, error: BridgeError) -> None:
        with self._lock:
            if server is self._failed_server:
                return
            server.kill()
            self._count_failure(server, error)

    def _count_failure(
        self, server: ServerProcess | None, error: BridgeError, *, trip: bool = False
    ) -> None:
        """Counts one failure of the current executable, or opens the breaker for it at once with
        ``trip``; lock held."""
        self._failed_server = server
        self._failures = self._max_failures if trip else self._failures + 1
        self._last_error = error
        if self._failures >= self._max_failures:
            self._next_start = time.monotonic() + self._open_seconds
            logger.warning(
                "vcc: %d failures in a row (last: %s); compactions fall back for %.0f s "
                "unless the executable changes",
                self._failures,
                error,
                self._open_seconds,
            )
        else:
            delay = self._backoff_seconds * 2 ** (self._failures - 1)
            self._next_start = time.monotonic() + min(delay, self._max_backoff_seconds)

    def _record_success(self) -> None:
        if self._failures:
            with self._lock:
                self._failures = 0
                self._last_error = None
                self._next_start = 0.0


def _require_time(deadline: Deadline, what: str) -> None:
    """Refuses to begin a wait with no time left; not a failure of the server."""
    if deadline.expired:
        raise BridgeTimeout(f"no time left for {what}")


def _executable(command: ServerCommand) -> tuple[object, ...]:
    """What identifies the executable ``command`` runs: its arguments, and for each one naming a
    file, that file's size, modification time and inode, so a rebuilt or replaced file differs."""
    identity: list[object] = []
    for argument in command.argv:
        try:
            found = os.stat(argument)
        except (OSError, ValueError):
            identity.append(argument)
            continue
        if stat.S_ISREG(found.st_mode):
            identity.append((argument, found.st_size, found.st_mtime_ns, found.st_ino))
        else:
            identity.append(argument)
    return tuple(identity)


def _max_message_bytes(info: Any) -> int | None:
    limits = info.get("limits") if isinstance(info, dict) else None
    value = limits.get("maxMessageBytes") if isinstance(limits, dict) else None
    return value if isinstance(value, int) and value > 0 else None


_shared_lock = threading.Lock()
_shared: tuple[int, BridgeClient] | None = None


def shared_client(create: Callable[[], BridgeClient]) -> BridgeClient:
    """The process's one client, created by ``create`` on first use (and again after a fork)."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared[0] != os.getpid():
            client = create()
            atexit.register(client.close)
            _shared = (os.getpid(), client)
        return _shared[1]
