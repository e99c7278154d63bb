/**
 * The Python sources of ledger-svc, the project the story's session works on: the retry schedule
 * with its off-by-one, the sync, replay, metrics and dump commands that print the seeded data
 * files, the CI and schema tools, the tests, and a generated vendor package.
 *
 * @module
 */
import type { LedgerValues } from "./values.ts";

/** The line of `ledger/retry.py` that drops the last retry, and its fix. */
export const RETRY_BUG =
  "    return [min(cap_ms, base_ms * 2**attempt) for attempt in range(max_retries - 1)]";
/** {@linkcode RETRY_BUG} fixed. */
export const RETRY_FIX =
  "    return [min(cap_ms, base_ms * 2**attempt) for attempt in range(max_retries)]";
/** The policy line of `ledger/replay.py` that drops failed batches, and its fix. */
export const DROP_POLICY = '    return "drop" if status == "failed" else "keep"';
/** {@linkcode DROP_POLICY} fixed. */
export const QUARANTINE_POLICY = '    return "quarantine" if status == "failed" else "keep"';
/** The log line of `ledger/sync.py` the same change rewords, before and after. */
export const DROP_LOG =
  '            log.warning("dropping batch %s after a failed replay", batch_id)';
/** {@linkcode DROP_LOG} reworded. */
export const QUARANTINE_LOG =
  '            log.warning("quarantining batch %s after a failed replay", batch_id)';

const VAR = 'VAR = Path(__file__).resolve().parents[1] / "var"';

function retryModule(values: LedgerValues): string {
  return `"""Retry schedule for calls to the upstream ledger API."""

MAX_RETRIES = ${values.maxRetries}
BASE_DELAY_MS = 200
MAX_DELAY_MS = 5_000


def retry_delays(max_retries=MAX_RETRIES, base_ms=BASE_DELAY_MS, cap_ms=MAX_DELAY_MS):
    """The wait before each retry in milliseconds: doubling from base_ms, capped at cap_ms."""
${RETRY_BUG}
`;
}

const CLIENT =
  `"""Client of the upstream ledger API. Public interface: keep these signatures stable."""

import time

from ledger.retry import retry_delays


class UpstreamError(Exception):
    """The upstream API answered with an error after every retry."""


def fetch_page(ledger_id, page, *, session=None):
    """One page of a ledger's entries, retried on 429 and 5xx answers."""
    last = None
    for delay_ms in [0, *retry_delays()]:
        time.sleep(delay_ms / 1000)
        if session is None:
            return []
        last = session.get(f"/v2/ledgers/{ledger_id}/entries", params={"page": page})
        if last.status_code < 400:
            return last.json()["entries"]
    raise UpstreamError(f"ledger {ledger_id} page {page}: HTTP {last.status_code}")
`;

const SYNC = `"""Nightly sync of ledger entries from the upstream API into the local store."""

import argparse
import logging
import sys
from pathlib import Path

from ledger.client import UpstreamError, fetch_page

log = logging.getLogger("ledger.sync")
${VAR}


def sync_batch(store, batch_id, ledger_id, pages, *, session=None):
    """Copies one batch of pages; a batch that fails is handed to the replay queue."""
    try:
        for page in range(1, pages + 1):
            store.put(batch_id, fetch_page(ledger_id, page, session=session))
    except UpstreamError:
        if store.replay_failed(batch_id):
${DROP_LOG}
            store.discard(batch_id)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="ledger.sync")
    parser.add_argument("--night", required=True, help="YYYY-MM-DD")
    parser.add_argument("--replay-log", action="store_true", help="print the night's log")
    args = parser.parse_args(argv)
    if args.replay_log:
        sys.stdout.write((VAR / "log" / f"sync-{args.night}.log").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;

const REPLAY = `"""Replays the failed sync batches of one shard."""

import argparse
import json
import signal
import sys
import time
from pathlib import Path

from ledger.client import fetch_page

${VAR}


def quarantine_policy(status):
    """What happens to a batch after its replay: kept, or set aside."""
${DROP_POLICY}


def replay(batch_ids, *, session=None):
    """Fetches each batch again."""
    return [fetch_page(batch_id, 1, session=session) for batch_id in batch_ids]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="ledger.replay")
    parser.add_argument("--shard", type=int, required=True)
    parser.add_argument("--quarantine", action="store_true")
    parser.add_argument("--verify", action="store_true", help="scan the whole shard (slow)")
    args = parser.parse_args(argv)
    if args.verify:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        time.sleep(30)
        return 0
    report = json.loads((VAR / "replay" / f"shard-{args.shard}.json").read_text())
    time.sleep(0.5)
    print(f"replay shard {args.shard}: {report['read']} failed batches read")
    print(f"replayed {report['replayed']} batches, {report['quarantined']} quarantined, 0 dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;

const BACKFILL = `"""Backfills a shard's history after an outage."""

from ledger.client import fetch_page


def backfill(ledger_id, pages, *, session=None):
    """Every page of one ledger, oldest first."""
    return [fetch_page(ledger_id, page, session=session) for page in range(1, pages + 1)]
`;

function printer(doc: string, file: string, flag: string): string {
  return `"""${doc}"""

import argparse
import sys
from pathlib import Path

${VAR}


def main(argv=None):
    parser = argparse.ArgumentParser()
    ${flag}
    args = parser.parse_args(argv)
    sys.stdout.write((VAR / ${file}).read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;
}

const ENTRIES = `"""Amounts as the ledger stores them: integer cents, printed with two decimals."""


def format_amount(cents):
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def parse_amount(text):
    sign = -1 if text.startswith("-") else 1
    whole, _, fraction = text.lstrip("-").partition(".")
    return sign * (int(whole) * 100 + int(fraction or 0))
`;

function retryTests(values: LedgerValues): string {
  const budgets = Array.from(
    { length: values.failedTests },
    (_, index) => values.maxRetries + index,
  );
  return `import pytest

from ledger.retry import MAX_RETRIES, retry_delays


@pytest.mark.parametrize("budget", [${budgets.join(", ")}])
def test_retry_budget(budget):
    assert len(retry_delays(budget)) == budget


def test_first_delay_is_the_base():
    assert retry_delays(MAX_RETRIES)[0] == 200


def test_delays_never_pass_the_cap():
    assert max(retry_delays(12)) == 5_000


def test_delays_grow():
    delays = retry_delays(12)
    assert delays == sorted(delays)
`;
}

function entryTests(values: LedgerValues): string {
  return `import pytest

from ledger.entries import format_amount, parse_amount


@pytest.mark.parametrize("cents", range(-20, ${values.passedTests - 3 - 20}))
def test_amount_round_trip(cents):
    assert parse_amount(format_amount(cents * 137)) == cents * 137
`;
}

const CHECK_SCHEMA =
  `"""Compares a database's applied migrations with the schema the code expects."""

import argparse
import json
import sys
from pathlib import Path

${VAR}


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--env", default="staging")
    args = parser.parse_args(argv)
    state = json.loads((VAR / "schema" / f"{args.env}.json").read_text())
    missing = [m for m in state["expected"] if m["id"] not in state["applied"]]
    for migration in missing:
        print(f"SchemaError: column {migration['column']} missing in {migration['table']} "
              f"(migration {migration['id']} not applied on {args.env})")
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
`;

/** The sources, relative path to text. */
export function pythonSources(values: LedgerValues): Record<string, string> {
  return {
    "ledger/__init__.py": '"""ledger-svc: nightly ledger sync, replay and backfill."""\n',
    "ledger/retry.py": retryModule(values),
    "ledger/client.py": CLIENT,
    "ledger/entries.py": ENTRIES,
    "ledger/sync.py": SYNC,
    "ledger/replay.py": REPLAY,
    "ledger/backfill.py": BACKFILL,
    "ledger/metrics.py": printer(
      "Prints every metric of the service in Prometheus text form.",
      '"metrics" / "all.prom"',
      'parser.add_argument("--all", action="store_true")',
    ),
    "ledger/dump.py": printer(
      "Prints one page of ledger entries.",
      '"ledger" / f"page-{args.page:02d}.txt"',
      'parser.add_argument("--page", type=int, required=True)',
    ),
    "tools/__init__.py": "",
    "tools/ci_api.py": printer(
      "Prints the CI service's run listing, one page (as fetched into var/ci).",
      '"ci" / f"runs-page-{args.page}.json"',
      'parser.add_argument("resource", choices=["runs"])\n    ' +
        'parser.add_argument("--page", type=int, default=1)\n    ' +
        'parser.add_argument("--per-page", type=int, default=200)',
    ),
    "tools/check_schema.py": CHECK_SCHEMA,
    "tests/__init__.py": "",
    "tests/test_retry.py": retryTests(values),
    "tests/test_entries.py": entryTests(values),
    "vendor/ledger_proto/__init__.py":
      "# Generated from the ledger-proto repository by protoc. Do not edit.\nSCHEMA = 12\n",
  };
}

/** The lines (`path:line`) of every `fetch_page(` call in `files`, outside its definition. */
export function callSites(files: Readonly<Record<string, string>>, name: string): string[] {
  const sites: string[] = [];
  for (const [path, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    text.split("\n").forEach((line, index) => {
      if (line.includes(`${name}(`) && !line.includes(`def ${name}(`)) {
        sites.push(`${path}:${index + 1}`);
      }
    });
  }
  return sites;
}
