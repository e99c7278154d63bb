"""Fast anchors: Hermes's anchor index built by ``vcc serve`` instead of Hermes's own builder.

Hermes's lean augmentation (``_augment_summary_lean``) appends an anchor index that the module
function ``agent.context_compressor._build_anchor_index`` builds from the compacted turns. vcc
builds the same bytes several times faster, and it already has the turns: the engine asks for the
index with the projection (``anchors: true``). The engine trusts it only after both builders gave
the same index, once per process, on the fixed ``SAMPLE`` below (checked before the first
projection that would ask for it) and on the first real compaction. Hermes's builder classifies
characters with the Unicode tables of the Python it runs on, vcc's with the tables of the Python
it was generated from (``vcc serve`` reports their version); a Python with other tables switches
fast anchors off before any sample is compared, since a sample cannot cover every character whose
class changed. Any disagreement, or an error while checking, switches fast anchors off for the
process with one warning; Hermes's own builder is used from then on, as without the plugin.

The substitution is exact and local. The module function is replaced, once, by a wrapper that
returns vcc's index only on the thread that is finishing a summary, and only for that summary's
own turns list; every other call goes to Hermes's builder. Hermes's augmentation therefore keeps
deciding whether an index is added, redacts it and places it, as it always does.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from . import hermes_internals

logger = logging.getLogger(__name__)

SAMPLE: list[dict[str, Any]] = [
    {
        "role": "user",
        "content": "Fix #4521 (and #4522) on fix/login-redirect; see "
        "https://github.com/acme/app/pull/4521 and ask @maria-dev or @teknium.",
    },
    {
        "role": "assistant",
        "content": "Reading src/app/auth.py and tests/test_auth.py at 9f8e7d6c5b4a first.",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "src/app/auth.py"}'},
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": 'Traceback (most recent call last):\n  File "src/app/auth.py", line 42\n'
        "KeyError: 'session_token'\nENOSPC: no space left on device, write build/out.json\n",
    },
    {"role": "tool", "content": [{"type": "text", "text": "#9999 in list content is not read"}]},
    {"role": "assistant", "content": None},
    {
        "role": "user",
        "content": "Le fichier données/résumé.md cite #١٢٣٤ — ValueError: clé invalide\x85, "
        "voir feat/naïve-path, deadbeef0123456789 et \U0001d400deadbeef99999 (pas un commit).",
    },
    {"role": "user", "content": "Again: src/app/auth.py, #4521, @maria-dev."},
]
"""A fixed window touching every category and the Unicode rules Hermes's builder follows."""

UNICODE_VERSION_FIELD = "anchorUnicodeVersion"
"""The ``serverInfo`` field of vcc's ``initialize`` answer naming the Unicode version (Python's
``unicodedata.unidata_version``) of the tables vcc's anchor builder classifies characters with."""

_UNCHECKED = "unchecked"
_SAMPLE_AGREED = "sample agreed"
_VERIFIED = "verified"
_OFF = "off"


class FastAnchors:
    """The process's fast-anchor state and the wrapper around Hermes's builder. Thread-safe.

    ``locate`` returns the Hermes module that holds the builder, or ``None`` when the release has
    none (then fast anchors are never used).
    """

    def __init__(self, locate: Callable[[], Any] = hermes_internals.anchor_builder_module) -> None:
        self._locate = locate
        self._lock = threading.Lock()
        self._state = _UNCHECKED
        self._pending = threading.local()
        self._hermes_builder: Callable[[Any], str] | None = None
        self._wrapper = self._make_wrapper()

    @property
    def state(self) -> str:
        """``unchecked``, ``sample agreed``, ``verified`` or ``off``."""
        return self._state

    def available(self) -> bool:
        """Whether this Hermes has the builder and fast anchors have not been switched off."""
        return self._state != _OFF and self._locate() is not None

    def check_sample(
        self,
        build: Callable[[list[dict[str, Any]]], str],
        server_info: Callable[[], Mapping[str, Any]],
    ) -> bool:
        """Checks vcc's builder the first time it is called: ``server_info`` (vcc's ``serverInfo``)
        must name this Python's Unicode version, and ``build`` (vcc's builder, through the bridge)
        must give Hermes's index of ``SAMPLE``. Returns whether vcc's index may be asked for. Never
        raises.

        Both callables bound their own wait. A caller never waits for another thread's check:
        while one runs, vcc's index is not asked for."""
        if self._state == _UNCHECKED and self._lock.acquire(blocking=False):
            try:
                if self._state == _UNCHECKED:
                    self._check(build, server_info)
            finally:
                self._lock.release()
        return self._state in (_SAMPLE_AGREED, _VERIFIED)

    @contextlib.contextmanager
    def substituted(self, turns: list[dict[str, Any]], index: Any) -> Iterator[None]:
        """While Hermes finishes the summary of ``turns`` on this thread, its builder answers
        ``index`` (vcc's) for them. On the process's first real compaction Hermes's builder runs
        too and both must agree; a disagreement switches fast anchors off. Without an index, or
        once switched off, Hermes's builder runs as usual."""
        value = self._trusted(turns, index)
        if value is None:
            yield
            return
        self._install()
        self._pending.value = (turns, value)
        try:
            yield
        finally:
            self._pending.value = None

    # -- internals -----------------------------------------------------------------------------

    def _trusted(self, turns: list[dict[str, Any]], index: Any) -> str | None:
        """The index to substitute for ``turns``, or ``None`` to let Hermes's builder run."""
        if not isinstance(index, str) or self._state not in (_SAMPLE_AGREED, _VERIFIED):
            return None
        if self._state == _VERIFIED:
            return index
        try:
            expected = self._hermes()(turns)
        except Exception:  # Hermes's own builder fails on these turns; let it, as usual
            return None
        with self._lock:
            if self._state == _SAMPLE_AGREED:
                if index == expected:
                    self._state = _VERIFIED
                else:
                    self._switch_off("it disagrees with Hermes's builder on a real compaction")
        # Hermes's own result: the same bytes its augmentation would compute, without a rerun.
        return expected

    def _check(
        self,
        build: Callable[[list[dict[str, Any]]], str],
        server_info: Callable[[], Mapping[str, Any]],
    ) -> None:
        """The Unicode and sample checks; lock held."""
        try:
            theirs = server_info().get(UNICODE_VERSION_FIELD)
            if theirs != unicodedata.unidata_version:
                self._switch_off(
                    f"vcc classifies characters by Unicode {theirs or '(not reported)'} and this "
                    f"Python by Unicode {unicodedata.unidata_version}"
                )
                return
            expected = self._hermes()(SAMPLE)
            got = build(SAMPLE)
        except Exception as error:  # an unverified builder is never trusted
            self._switch_off(
                f"checking it on a fixed sample failed ({type(error).__name__}: {error})"
            )
        else:
            if got == expected:
                self._state = _SAMPLE_AGREED
            else:
                self._switch_off("it disagrees with Hermes's builder on a fixed sample")

    def _hermes(self) -> Callable[[Any], str]:
        """Hermes's builder (the one the wrapper wraps, once installed)."""
        if self._hermes_builder is not None:
            return self._hermes_builder
        module = self._locate()
        if module is None:
            raise LookupError("this Hermes has no anchor builder")
        builder: Callable[[Any], str] = getattr(module, hermes_internals.ANCHOR_BUILDER_NAME)
        return builder

    def _install(self) -> None:
        """Puts the wrapper in place of Hermes's builder (once; again if something replaced it)."""
        module = self._locate()
        if module is None:
            return
        with self._lock:
            current = getattr(module, hermes_internals.ANCHOR_BUILDER_NAME, None)
            if current is self._wrapper or not callable(current):
                return
            self._hermes_builder = current
            setattr(module, hermes_internals.ANCHOR_BUILDER_NAME, self._wrapper)

    def _make_wrapper(self) -> Callable[[Any], str]:
        pending = self._pending

        def _build_anchor_index(turns: Any) -> str:
            substitute = getattr(pending, "value", None)
            if substitute is not None and substitute[0] is turns:
                return str(substitute[1])
            return self._hermes()(turns)

        _build_anchor_index.__doc__ = "Hermes's anchor-index builder, or vcc's verified index."
        return _build_anchor_index

    def _switch_off(self, reason: str) -> None:
        """Switches fast anchors off for the process with one warning; lock held."""
        if self._state == _OFF:
            return
        self._state = _OFF
        logger.warning(
            "vcc: fast anchors are off for this process: %s; Hermes builds the anchor index",
            reason,
        )


FAST_ANCHORS = FastAnchors()
"""The process's one fast-anchor state, shared by every engine."""
