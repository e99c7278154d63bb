"""The bridge client against the real ``vcc serve`` (run from source) and misbehaving children."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import SERVE_FROM_SOURCE, fake_server, shell_script, started
from fake_server import BODY, FLOOD_BYTES, STDERR_LINES

from plugin.binary import ServerCommand, ServerNotFound
from plugin.bridge import BridgeClient
from plugin.bridge_errors import (
    BridgeCrashed,
    BridgeProtocolError,
    BridgeRemoteError,
    BridgeRequestError,
    BridgeTimeout,
    BridgeUnavailable,
    BridgeVersionMismatch,
)
from plugin.deadline import Deadline
from plugin.manifest import plugin_version
from plugin.server_process import MAX_RESPONSE_BYTES, STDERR_LINE_BYTES, STDERR_LINES_KEPT

TIMEOUT = 30.0
MiB = 1024 * 1024


def window(size: int, tag: str = "") -> list[dict[str, Any]]:
    """``size`` user messages; the server's ``stats.inputMessages`` echoes ``size`` back."""
    return [{"role": "user", "content": f"message {i} {tag}"} for i in range(size)]


@pytest.fixture
def clients() -> Iterator[Callable[..., BridgeClient]]:
    """Makes clients of a given command; every client made is closed after the test."""
    made: list[BridgeClient] = []

    def make(argv: Sequence[str] = SERVE_FROM_SOURCE, **options: Any) -> BridgeClient:
        options.setdefault("expected_version", plugin_version())
        options.setdefault("backoff_seconds", 0.0)
        client = BridgeClient(lambda: ServerCommand(tuple(argv), "test"), **options)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_until_in_flight(client: BridgeClient) -> None:
    """Returns once the client has a request waiting for an answer."""
    server = client._server
    assert server is not None
    while not server._pending:
        time.sleep(0.01)


def test_project_round_trip(clients: Callable[..., BridgeClient]) -> None:
    client = clients()
    result = client.project({"messages": window(3), "session_id": "s1"}, TIMEOUT)
    assert result["stats"]["inputMessages"] == 3
    assert result["body"].startswith("(vcc projection of session ")
    assert "\n## Historical Task Snapshot\n" in result["body"]


def test_invalid_params_are_answered_and_the_server_keeps_serving(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients()
    with pytest.raises(BridgeRemoteError) as raised:
        client.call("project", {"messages": "not a list"}, TIMEOUT)
    assert raised.value.code == -32602
    pid = client.server_pid
    assert client.project({"messages": window(2)}, TIMEOUT)["stats"]["inputMessages"] == 2
    assert client.server_pid == pid


def test_eight_threads_get_their_own_answers(clients: Callable[..., BridgeClient]) -> None:
    client = clients()
    mismatches: list[tuple[int, int]] = []
    errors: list[BaseException] = []

    def worker(thread: int) -> None:
        try:
            for request in range(50):
                size = thread * 50 + request + 1
                result = client.project({"messages": window(size, f"t{thread}")}, TIMEOUT)
                if result["stats"]["inputMessages"] != size:
                    mismatches.append((size, result["stats"]["inputMessages"]))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert mismatches == []


def test_a_child_killed_mid_request_fails_that_call_and_the_next_call_restarts_it(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients()
    client.project({"messages": window(1)}, TIMEOUT)
    first_pid = client.server_pid
    assert first_pid is not None
    # Stopped, the child cannot answer; the request is in flight when SIGKILL arrives.
    os.kill(first_pid, signal.SIGSTOP)
    outcome: list[BaseException] = []

    def call() -> None:
        try:
            client.project({"messages": window(5)}, TIMEOUT)
        except BaseException as error:
            outcome.append(error)

    caller = threading.Thread(target=call)
    caller.start()
    wait_until_in_flight(client)
    os.kill(first_pid, signal.SIGKILL)
    caller.join(2 * TIMEOUT)
    # A crash, not a timeout: the call failed before its timeout ran out.
    assert len(outcome) == 1 and isinstance(outcome[0], BridgeCrashed), outcome
    assert "killed by signal 9" in str(outcome[0])
    assert client.project({"messages": window(4)}, TIMEOUT)["stats"]["inputMessages"] == 4
    assert client.server_pid not in (None, first_pid)


def test_a_child_writing_garbage_to_stdout_fails_the_call_at_once(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients(fake_server("garbage"))
    # A protocol error, not a timeout: the call failed as soon as the garbage arrived.
    with pytest.raises(BridgeProtocolError, match=r"non-protocol line.*denort"):
        client.project({"messages": window(1)}, TIMEOUT)
    assert client.server_pid is None


def test_json_nested_deeper_than_python_recurses_on_stdout_fails_the_call_at_once(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients(fake_server("garbage", "[" * 10_000 + "]" * 10_000))
    with pytest.raises(BridgeProtocolError, match="non-protocol line"):
        client.project({"messages": window(1)}, TIMEOUT)
    assert client.server_pid is None


def test_a_hung_child_times_out_and_is_killed(clients: Callable[..., BridgeClient]) -> None:
    client = clients(fake_server("hang"), start_timeout=1.0)
    with pytest.raises(BridgeTimeout, match=r"initialize got no answer within 1\.0 s"):
        client.project({"messages": window(1)}, TIMEOUT)
    assert client.server_pid is None


def test_a_request_that_hangs_after_a_good_handshake_times_out(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients()
    client.project({"messages": window(1)}, TIMEOUT)
    pid = client.server_pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    with pytest.raises(BridgeTimeout, match=r"project got no answer within 1\.0 s"):
        client.project({"messages": window(1)}, 1.0)
    assert not process_exists(pid)


def test_a_crashing_child_reports_its_exit_code_and_last_stderr(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients(fake_server("silent-exit"))
    with pytest.raises(BridgeCrashed, match=r"exited with code 3(?s:.*)cannot load the projector"):
        client.project({"messages": window(1)}, TIMEOUT)


def test_a_server_of_another_version_is_refused_and_not_restarted(
    clients: Callable[..., BridgeClient], starts: Path
) -> None:
    client = clients(fake_server("answer", "0.0.0-other", "0"))
    with pytest.raises(BridgeVersionMismatch, match=r"is vcc 0\.0\.0-other"):
        client.project({"messages": window(1)}, TIMEOUT)
    with pytest.raises(BridgeUnavailable, match="not starting vcc"):
        client.project({"messages": window(1)}, TIMEOUT)
    assert started(starts) == 1


def test_repeated_failures_open_the_circuit(
    clients: Callable[..., BridgeClient], starts: Path
) -> None:
    client = clients(fake_server("silent-exit"), max_failures=3)
    for _ in range(3):
        with pytest.raises(BridgeCrashed):
            client.project({"messages": []}, TIMEOUT)
    with pytest.raises(BridgeUnavailable, match="after 3 failures in a row; last: vcc exited"):
        client.project({"messages": []}, TIMEOUT)
    assert started(starts) == 3


def test_a_missing_executable_is_reported_by_every_call_and_opens_no_circuit() -> None:
    def locate() -> ServerCommand:
        raise ServerNotFound("no vcc here")

    client = BridgeClient(locate, expected_version="x", max_failures=1)
    for _ in range(3):
        with pytest.raises(BridgeUnavailable, match=r"^no vcc here$"):
            client.project({"messages": []}, TIMEOUT)


def test_a_changed_command_is_started_at_once_despite_the_open_circuit(starts: Path) -> None:
    command = [fake_server("answer", "0.0.0-other", "0")]
    client = BridgeClient(
        lambda: ServerCommand(command[0], "test"), expected_version=plugin_version()
    )
    try:
        with pytest.raises(BridgeVersionMismatch):
            client.project({"messages": window(1)}, TIMEOUT)
        command[0] = fake_server("answer", plugin_version(), "0")
        assert client.project({"messages": window(1)}, TIMEOUT)["body"] == BODY
        assert started(starts) == 2
    finally:
        client.close()


def test_a_rebuilt_executable_at_the_same_path_is_started_at_once(
    starts: Path, tmp_path: Path
) -> None:
    vcc = shell_script(tmp_path / "vcc", fake_server("silent-exit"))
    client = BridgeClient(
        lambda: ServerCommand((str(vcc),), "test"),
        expected_version=plugin_version(),
        max_failures=2,
        backoff_seconds=0.0,
    )
    try:
        for error in (BridgeCrashed, BridgeCrashed, BridgeUnavailable):
            with pytest.raises(error):
                client.project({"messages": window(1)}, TIMEOUT)
        shell_script(vcc, fake_server("answer", plugin_version(), "0"))
        assert client.project({"messages": window(1)}, TIMEOUT)["body"] == BODY
        assert started(starts) == 3
    finally:
        client.close()


def test_a_restart_whose_backoff_outlasts_the_deadline_is_refused_at_once(
    clients: Callable[..., BridgeClient], starts: Path
) -> None:
    client = clients(fake_server("silent-exit"), backoff_seconds=3.0)
    with pytest.raises(BridgeCrashed):
        client.project({"messages": []}, TIMEOUT)
    with pytest.raises(BridgeUnavailable, match=r"for another [23]\.\d s after 1 failures"):
        client.project({"messages": []}, 1.0)
    assert started(starts) == 1


def test_the_start_waits_no_longer_than_the_callers_deadline(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients(fake_server("hang"), start_timeout=600.0)
    with pytest.raises(BridgeTimeout, match=r"initialize got no answer within 1\.0 s"):
        client.project({"messages": window(1)}, Deadline.after(1.0))
    with pytest.raises(BridgeTimeout, match="no time left for starting vcc"):
        client.project({"messages": window(1)}, Deadline.after(0.0))


def test_a_flood_on_stdout_is_cut_at_the_limit_and_fails_the_call(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients(fake_server("flood", plugin_version(), "stdout"))
    tracemalloc.start()
    try:
        # A protocol error, not a timeout: the call failed as soon as the line passed the limit.
        with pytest.raises(BridgeProtocolError, match=f"more than {MAX_RESPONSE_BYTES} bytes"):
            client.project({"messages": window(1)}, TIMEOUT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MAX_RESPONSE_BYTES + 4 * MiB < FLOOD_BYTES
    assert client.server_pid is None


def test_a_flood_on_stderr_is_cut_and_the_server_keeps_serving(
    clients: Callable[..., BridgeClient], caplog: pytest.LogCaptureFixture
) -> None:
    client = clients(fake_server("flood", plugin_version(), "stderr"))
    tracemalloc.start()
    try:
        with caplog.at_level(logging.DEBUG, logger="plugin.server_process"):
            assert client.project({"messages": window(1)}, TIMEOUT)["body"] == BODY
            server = client._server
            assert server is not None
            server.stop()
            server._threads[2].join(TIMEOUT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * MiB < FLOOD_BYTES
    logged = [r.getMessage() for r in caplog.records]
    assert logged[0] == "x" * STDERR_LINE_BYTES + " [cut]"
    assert server.stderr_tail().splitlines() == [
        f"line {n}" for n in range(STDERR_LINES - STDERR_LINES_KEPT, STDERR_LINES)
    ]


def test_a_twenty_megabyte_window_round_trips(clients: Callable[..., BridgeClient]) -> None:
    client = clients()
    chunk = "x" * 10_000
    messages = [
        {"role": "tool", "content": f"{i} {chunk}", "tool_call_id": f"c{i}"} for i in range(2_000)
    ]
    result = client.project({"messages": messages, "budget_tokens": 2000}, TIMEOUT)
    assert result["stats"]["inputMessages"] == 2_000
    assert len(result["body"]) <= 2000 * 4


def test_a_request_over_the_servers_limit_is_refused_before_sending(
    clients: Callable[..., BridgeClient],
) -> None:
    client = clients((*SERVE_FROM_SOURCE, "--max-message-bytes", "4096"))
    with pytest.raises(BridgeRequestError, match="the server reads at most 4096"):
        client.project({"messages": window(1, "y" * 5000)}, TIMEOUT)
    assert client.project({"messages": window(1)}, TIMEOUT)["stats"]["inputMessages"] == 1


def test_close_ends_the_child_by_closing_its_input(clients: Callable[..., BridgeClient]) -> None:
    client = clients()
    client.project({"messages": window(1)}, TIMEOUT)
    pid = client.server_pid
    assert pid is not None
    client.close()
    assert not process_exists(pid)
    assert client.server_pid is None
