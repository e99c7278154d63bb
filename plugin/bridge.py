"""The client of ``vcc serve``: one child per process, shared by every engine and thread.

It starts the child on first use and checks its version, restarts it after a crash with a growing
delay, and after repeated failures stops trying for a while (a circuit breaker) so compactions fall
back quickly instead of waiting on a broken executable.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from .binary import ServerCommand
from .bridge_errors import (
    BridgeError,
    BridgeRemoteError,
    BridgeRequestError,
    BridgeUnavailable,
    BridgeVersionMismatch,
)
from .server_process import ServerProcess

logger = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
"""The bridge protocol version this client speaks."""


class BridgeClient:
    """Calls ``vcc serve``, (re)starting it as needed. Thread-safe.

    ``locate`` returns the command to start; it is asked again on every start, so a fixed install
    is picked up after a failure. A child counts as failed when it crashes, hangs past a timeout,
    breaks the protocol or fails its handshake; after ``max_failures`` failures in a row no start
    is attempted for ``open_seconds``. Restarts wait ``backoff_seconds`` doubled per failure.
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
        self._failures = 0
        self._last_error: BridgeError | None = None
        self._failed_server: ServerProcess | None = None
        self._closed_until = 0.0

    @property
    def server_pid(self) -> int | None:
        """Process id of the running child, if any."""
        server = self._server
        return server.pid if server is not None and server.alive else None

    def project(self, params: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        """Projects a window: ``params`` are the ``project`` method's, the result has ``body`` and
        ``stats``. Raises a ``BridgeError`` subclass on any failure."""
        result = self.call("project", dict(params), timeout)
        if not isinstance(result, dict) or not isinstance(result.get("body"), str):
            raise BridgeRemoteError(0, "the project result has no body")
        return result

    def anchors(self, messages: list[dict[str, Any]], timeout: float) -> str:
        """Hermes's anchor index of ``messages``, built by vcc (the ``anchors`` method). Raises a
        ``BridgeError`` subclass on any failure."""
        result = self.call("anchors", {"messages": messages}, timeout)
        if not isinstance(result, dict) or not isinstance(result.get("index"), str):
            raise BridgeRemoteError(0, "the anchors result has no index")
        return str(result["index"])

    def call(self, method: str, params: Any, timeout: float) -> Any:
        """Makes one JSON-RPC call, starting the server first if needed."""
        server = self._running_server()
        try:
            result = server.call(method, params, timeout)
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

    def _running_server(self) -> ServerProcess:
        with self._lock:
            server = self._server
            if server is not None and server.alive:
                return server
            if server is not None and server is not self._failed_server:
                self._count_failure(server, BridgeError("vcc exited between requests"))
            now = time.monotonic()
            if now < self._closed_until:
                raise BridgeUnavailable(
                    f"not starting vcc for another {self._closed_until - now:.0f} s after "
                    f"{self._failures} failures in a row; last: {self._last_error}"
                )
            if self._failures:
                delay = self._backoff_seconds * 2 ** (self._failures - 1)
                time.sleep(min(delay, self._max_backoff_seconds))
            self._server = self._start()
            return self._server

    def _start(self) -> ServerProcess:
        """Starts and handshakes a child; called with the lock held."""
        try:
            command = self._locate()
        except Exception as error:
            failure = BridgeUnavailable(str(error))
            self._count_failure(None, failure)
            raise failure from None
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
                self._start_timeout,
            )
            self._check_handshake(info, command)
        except BridgeError as error:
            server.kill()
            # A wrong version will not fix itself by restarting: stop trying at once.
            self._count_failure(server, error, trip=isinstance(error, BridgeVersionMismatch))
            raise
        server.max_message_bytes = _max_message_bytes(info)
        return server

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
        """Counts one failure, or opens the breaker at once with ``trip``; lock held."""
        self._failed_server = server
        self._failures = self._max_failures if trip else self._failures + 1
        self._last_error = error
        if self._failures >= self._max_failures:
            self._closed_until = time.monotonic() + self._open_seconds
            logger.warning(
                "vcc: %d failures in a row (last: %s); compactions fall back for %.0f s",
                self._failures,
                error,
                self._open_seconds,
            )

    def _record_success(self) -> None:
        if self._failures:
            with self._lock:
                self._failures = 0
                self._last_error = None


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
