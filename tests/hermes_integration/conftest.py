"""The vcc plugin inside a real Hermes Agent.

Run with the Python of a virtual environment ``.ci/hermes.sh`` built (``deno task test`` runs
these tests once per release listed in ``.cache/hermes/installed.txt``):

    .cache/hermes/0.19.0-py3.11/bin/python -m pytest tests/hermes_integration

Unlike ``tests/plugin``, nothing here stands in for Hermes: without an importable Hermes the run
stops with a usage error instead of skipping. Hermes reads and writes only sandboxes: the whole
run gets a temporary ``HERMES_HOME`` before Hermes is imported, and each test or scenario its own
(``hermes_sandbox.Sandbox``); inherited ``HERMES_*`` variables are dropped, and Hermes's runtime
package installs are turned off (a session check fails the run if the venv's packages change).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hermes_sandbox import Sandbox
    from scenarios import Compaction

for _name in [name for name in os.environ if name.startswith("HERMES_")]:
    del os.environ[_name]
_RUN_HOME = Path(tempfile.mkdtemp(prefix="vcc-hermes-run-"))
os.environ["HERMES_HOME"] = str(_RUN_HOME)
os.environ["HERMES_DISABLE_LAZY_INSTALLS"] = "1"


def _hermes_importable() -> bool:
    try:
        return importlib.util.find_spec("agent.context_compressor") is not None
    except ImportError:
        return False


def pytest_configure(config: pytest.Config) -> None:
    if not _hermes_importable():
        raise pytest.UsageError(
            f"the Hermes integration tests need a Python with Hermes Agent installed, and "
            f"{sys.executable} has none; run `bash .ci/hermes.sh`, then `deno task test` or "
            f"`<python from .cache/hermes/installed.txt> -m pytest tests/hermes_integration`"
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_RUN_HOME, ignore_errors=True)


def pytest_report_header(config: pytest.Config) -> str:
    from hermes_release import RELEASE

    return f"Hermes Agent: {RELEASE.name} on Python {platform.python_version()} ({sys.executable})"


def _distributions() -> set[tuple[str, str]]:
    return {(d.metadata["Name"], d.version) for d in importlib.metadata.distributions()}


@pytest.fixture(scope="session", autouse=True)
def hermes_installation_is_left_unchanged() -> Iterator[None]:
    """Hermes installs missing optional packages at run time when allowed; the tests must not."""
    before = _distributions()
    yield
    after = _distributions()
    assert after == before, f"packages added: {after - before}, removed: {before - after}"


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    """A fresh Hermes home, made ``HERMES_HOME`` for the test."""
    from hermes_sandbox import Sandbox

    with Sandbox(tmp_path / "hermes-home") as home:
        yield home


# The names of ``scenarios.SCENARIOS`` (imported only once Hermes is known to be importable).
@pytest.fixture(scope="session", params=["auto-pruned", "merge", "manual-focus", "corpus"])
def compaction(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Compaction]:
    """A scenario of ``scenarios.py``, compacted once for every test that inspects it (its
    sandbox is left before the tests run; its session store stays open for them)."""
    from hermes_sandbox import Sandbox
    from scenarios import SCENARIOS

    name: str = request.param
    with Sandbox(tmp_path_factory.mktemp(name) / "hermes-home") as home:
        done = SCENARIOS[name](home)
    if done is None:
        pytest.skip("the shared corpus is not beside the checkout (../shared/corpus)")
    try:
        yield done
    finally:
        done.store.close()
