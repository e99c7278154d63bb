"""The Hermes Agent release these tests run against, and which of the features they check it has.

Features are detected from the installed code, not from version numbers, so a skip message states
what the release lacks.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import agent.context_compressor as compressor_module
import agent.conversation_compression as host_module
import plugins.context_engine as engine_loader
from hermes_state import SessionDB


@dataclass(frozen=True)
class Release:
    """The installed Hermes Agent distribution and the features that differ between releases."""

    name: str
    """The distribution and its version, e.g. ``hermes-agent 0.19.0``."""
    user_engine_loader: bool
    """Its context-engine loader looks in ``$HERMES_HOME/plugins`` (else only the general plugin
    manager loads user engines, and only those listed in ``plugins.enabled``)."""
    refuse_to_grow: bool
    """The host refuses a compaction that grew the transcript, after a salvage attempt."""
    row_ids_on_load: bool
    """``get_messages_as_conversation`` can put each row's id on it as ``_row_id``."""
    pre_llm_skip: bool
    """Its compressor may skip the summary step (``_feasibility_skip``) and then inserts a
    deterministic summary through ``_fallback_summary_for_window``, which books it as a fallback."""
    deterministic_pin: bool
    """Its host can pin the deterministic summary for a compaction (``pin_summary_route`` with
    ``DETERMINISTIC_SUMMARY_ROUTE``), which also goes through ``_fallback_summary_for_window``."""
    attempt_checks: bool
    """Its summary step unwinds a cancelled (``_compression_cancelled``) or superseded
    (``_raise_if_stale_attempt``) compaction attempt with ``AuxiliaryExplicitCancellation``."""
    provenance_check: bool
    """Its summary step refuses a summary naming a user request in a session without a user turn
    (``_validate_summary_user_provenance``)."""
    skill_markers: bool
    """Its summary step puts back the markers of skills compaction prunes
    (``_reinject_pruned_skill_markers``)."""
    unicode_as_vcc: bool
    """The Python it runs on classifies characters by the Unicode version whose tables vcc's
    anchor builder follows, so the plugin may use fast anchors (else it switches them off)."""
    package_manager: bool
    """It has Hermes's package manager (``pm.client``), through which ``hermes plugins install``
    publishes a plugin; its runtime is a CPython downloaded on first use."""


def _installed() -> Release:
    distribution = importlib.metadata.packages_distributions().get("agent", ["unknown"])[0]
    loader = inspect.signature(SessionDB.get_messages_as_conversation).parameters
    compressor = compressor_module.ContextCompressor
    return Release(
        name=f"{distribution} {importlib.metadata.version(distribution)}",
        user_engine_loader=callable(getattr(engine_loader, "find_engine_dir", None)),
        refuse_to_grow=callable(getattr(compressor_module, "salvage_grown_transcript", None)),
        row_ids_on_load="include_row_ids" in loader,
        pre_llm_skip=all(
            callable(getattr(compressor, name, None))
            for name in ("_feasibility_skip", "_fallback_summary_for_window")
        ),
        deterministic_pin=callable(getattr(compressor_module, "pin_summary_route", None))
        and hasattr(compressor_module, "DETERMINISTIC_SUMMARY_ROUTE"),
        attempt_checks=callable(getattr(compressor, "_compression_cancelled", None))
        and callable(getattr(host_module, "_raise_if_stale_attempt", None)),
        provenance_check=callable(getattr(compressor, "_validate_summary_user_provenance", None)),
        skill_markers=callable(getattr(compressor_module, "_reinject_pruned_skill_markers", None)),
        unicode_as_vcc=unicodedata.unidata_version == _vcc_tables_unicode(),
        package_manager=_importable("pm.client"),
    )


def _vcc_tables_unicode() -> str:
    """The Unicode version ``src/anchors/_python_unicode.ts`` was generated from."""
    tables = Path(__file__).resolve().parents[2] / "src" / "anchors" / "_python_unicode.ts"
    pattern = r'^export const PYTHON_UNICODE_VERSION = "([^"]+)";$'
    return str(re.findall(pattern, tables.read_text(encoding="utf-8"), re.M)[0])


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # its parent package is missing
        return False


RELEASE = _installed()
"""The release under test."""
