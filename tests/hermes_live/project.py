"""The temporary project the scripted session works on: a small Python package whose one test
fails until a bug is patched, and a few large data files for outputs that fill the context."""

from __future__ import annotations

from pathlib import Path

MODULE = "tally/stats.py"
"""The module holding the bug."""
TEST = "tests/test_stats.py"
BUG = "    return sum(values) / (len(values) + 1)\n"
FIX = "    return sum(values) / len(values)\n"
ASSERTION_MESSAGE = "mean of 2, 4, 6 must be 4"
"""The failing assertion's message: pytest prints it after ``AssertionError:``."""
DATA_DIR = "data"
DATA_FILES = 12
"""How many large data files there are (the session prints and reads each at most once)."""
DATA_LINES = 450
"""Lines per data file: about 32,000 characters, under the size at which Hermes moves a command's
output to a file on a 64K-token model (15% of the window)."""

_MODULE_TEXT = (
    '"""Summary statistics for tallies."""\n'
    "\n"
    "\n"
    "def total(values):\n"
    '    """The sum of the values."""\n'
    "    return sum(values)\n"
    "\n"
    "\n"
    "def mean(values):\n"
    '    """The arithmetic mean of the values."""\n' + BUG
)
_TEST_TEXT = (
    "from tally.stats import mean, total\n"
    "\n"
    "\n"
    "def test_total():\n"
    "    assert total([2, 4, 6]) == 12\n"
    "\n"
    "\n"
    "def test_mean():\n"
    f"    assert mean([2, 4, 6]) == 4, {ASSERTION_MESSAGE!r}\n"
)


def data_file(index: int) -> str:
    """The project-relative path of data file ``index`` (1-based)."""
    return f"{DATA_DIR}/ledger_{index:02d}.txt"


def _data_text(index: int) -> str:
    return "".join(
        f"ledger {index:02d} entry {line:04d}: account A-{(line * 37 + index) % 997:03d} "
        f"posted {line * 13 % 1000:03d}.{line % 100:02d} units, status settled\n"
        for line in range(1, DATA_LINES + 1)
    )


def write_project(root: Path) -> None:
    """Writes the project into ``root`` (an empty directory)."""
    files = {
        "tally/__init__.py": '"""Tally: small statistics helpers."""\n',
        MODULE: _MODULE_TEXT,
        "tests/__init__.py": "",
        TEST: _TEST_TEXT,
        "pyproject.toml": '[project]\nname = "tally"\nversion = "0.1.0"\n',
    }
    files.update({data_file(i): _data_text(i) for i in range(1, DATA_FILES + 1)})
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
