"""The project a generated story works on: the live session's project (``project.py``) plus what
the catalogue's actions need: a report script whose long command lines differ only at their end,
an invoice module the focus of a manual ``/compress`` names, and a ledger printer whose outputs
fill the context."""

from __future__ import annotations

from pathlib import Path

from project import write_project

LEDGER_SCRIPT = "scripts/ledger.py"
"""Prints ledger N (about 32,000 characters): ``python3 scripts/ledger.py N``."""
REPORT_SCRIPT = "scripts/report.py"
"""Exits with the status its ``--region`` names, after printing a line."""
INVOICE_MODULE = "billing/invoice.py"
"""The module a focused ``/compress`` is about."""
INVOICE_TEST = "billing/test_invoice.py"
PARSE_SCRIPT = "scripts/parse_json.py"
"""Fails parsing a broken document (``JSONDecodeError``), as the live session's check does, but
as a script: Hermes asks approval for ``python3 -c``."""
EXIT_SCRIPT = "scripts/exit_with.py"
"""Exits with the status it is given: ``python3 scripts/exit_with.py N``."""

_LEDGER_TEXT = '''"""Prints one generated ledger."""
import sys

index = int(sys.argv[1])
for line in range(1, 451):
    print(
        f"ledger {index:02d} entry {line:04d}: account A-{(line * 37 + index) % 997:03d} "
        f"posted {line * 13 % 1000:03d}.{line % 100:02d} units, status settled"
    )
'''
_REPORT_TEXT = '''"""A report over the ledgers; each region ends with its own status."""
import sys

STATUS = {"north": 0, "south": 3, "east": 0}
region = next(a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--region="))
print(f"report for region {region}")
if region == "void":
    raise KeyError(f"region {region!r} has no ledgers")
sys.exit(STATUS[region])
'''
_PARSE_TEXT = '''"""Parses the ledger index, which is broken."""
import json

json.loads("{bad")
'''
_EXIT_TEXT = '''"""Exits with the status it is given."""
import sys

sys.exit(int(sys.argv[1]))
'''
_INVOICE_TEXT = '''"""Invoices for tallied ledgers."""


def invoice_total(lines):
    """The total of an invoice's lines."""
    return sum(amount for _, amount in lines)
'''
_INVOICE_TEST_TEXT = """from billing.invoice import invoice_total


def test_invoice_total():
    assert invoice_total([("a", 2), ("b", 3)]) == 5
"""


def write_story_project(root: Path) -> None:
    """Writes the project into ``root`` (an empty directory)."""
    write_project(root)
    files = {
        LEDGER_SCRIPT: _LEDGER_TEXT,
        REPORT_SCRIPT: _REPORT_TEXT,
        PARSE_SCRIPT: _PARSE_TEXT,
        EXIT_SCRIPT: _EXIT_TEXT,
        "billing/__init__.py": "",
        INVOICE_MODULE: _INVOICE_TEXT,
        INVOICE_TEST: _INVOICE_TEST_TEXT,
    }
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
