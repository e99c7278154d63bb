import { type ScriptRow, SessionScript } from "./_script.ts";

/** The session id of the bundled sample session. */
export const SAMPLE_SESSION_ID = "20261128_091512_7c41e0";

const PYTEST_RED = `============================= test session starts ==============================
platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0
rootdir: /home/dev/inventory-api
configfile: pyproject.toml
collected 64 items

tests/test_api.py E.........                                             [ 15%]
tests/test_reservations.py F..F........                                  [ 34%]
tests/test_stock.py ..........................................           [100%]

==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_api.py ________________________
ImportError while importing test module '/home/dev/inventory-api/tests/test_api.py'.
E   ImportError: cannot import name 'reserve' from 'inventory.reservations'
=================================== FAILURES ===================================
______________________________ test_reserve_stock ______________________________
>       assert reservation.items[0]["sku"] == "A-100"
E       KeyError: 'sku'
______________________________ test_release_stock ______________________________
>       assert stock.available("A-100") == 3
E       AssertionError: assert 5 == 3
=========================== short test summary info ============================
FAILED tests/test_reservations.py::test_reserve_stock - KeyError: 'sku'
FAILED tests/test_reservations.py::test_release_stock - AssertionError: assert 5 == 3
ERROR tests/test_api.py
==================== 2 failed, 61 passed, 1 error in 2.84s =====================`;

function listing(lines: readonly string[], first = 1): string {
  return lines.map((line, index) => `${first + index}|${line}`).join("\n");
}

function diff(path: string, removed: string, added: string): string {
  return JSON.stringify({
    success: true,
    diff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${removed}\n+${added}`,
  });
}

const RESERVATIONS = [
  '"""Stock reservations: hold items for an order until it is paid or released."""',
  "from dataclasses import dataclass, field",
  "from inventory.stock import Stock",
  "",
  "@dataclass",
  "class Reservation:",
  "    order_id: str",
  "    items: list[dict] = field(default_factory=list)",
  "",
  "def reserve_stock(stock: Stock, order_id: str, lines: list[tuple[str, int]]) -> Reservation:",
  "    reservation = Reservation(order_id)",
  "    for code, quantity in lines:",
  "        stock.hold(code, quantity)",
  '        reservation.items.append({"code": code, "quantity": quantity})',
  "    return reservation",
  "",
  "def release_stock(stock: Stock, reservation: Reservation) -> None:",
  "    for item in reservation.items:",
  '        stock.release(item["code"], item["quantity"] - 1)',
];

const MODULES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["inventory/stock.py", [
    "class Stock:",
    "    def __init__(self, levels: dict[str, int]):",
    "        self._levels = dict(levels)",
    "        self._held: dict[str, int] = {}",
    "    def available(self, sku: str) -> int:",
    "        return self._levels.get(sku, 0) - self._held.get(sku, 0)",
    "    def hold(self, sku: str, quantity: int) -> None:",
    "        self._held[sku] = self._held.get(sku, 0) + quantity",
    "    def release(self, sku: str, quantity: int) -> None:",
    "        self._held[sku] = max(0, self._held.get(sku, 0) - quantity)",
  ]],
  ["inventory/api/routes.py", [
    "from fastapi import APIRouter, HTTPException",
    "from inventory.reservations import reserve",
    "router = APIRouter()",
    '@router.post("/reservations", status_code=201)',
    "def create_reservation(body: ReservationIn):",
    "    return reserve(STOCK, body.order_id, body.lines)",
  ]],
  ["inventory/models.py", [
    "from sqlalchemy import Column, Integer, String",
    "from inventory.db import Base",
    "class ReservationRow(Base):",
    '    __tablename__ = "reservations"',
    "    id = Column(Integer, primary_key=True)",
    "    order_id = Column(String, nullable=False)",
  ]],
  ["tests/test_reservations.py", [
    "from inventory.reservations import reserve_stock, release_stock",
    "from inventory.stock import Stock",
    "def test_reserve_stock():",
    '    stock = Stock({"A-100": 5})',
    '    reservation = reserve_stock(stock, "o-1", [("A-100", 2)])',
    '    assert reservation.items[0]["sku"] == "A-100"',
    "def test_release_stock():",
    '    stock = Stock({"A-100": 5})',
    '    reservation = reserve_stock(stock, "o-1", [("A-100", 2)])',
    "    release_stock(stock, reservation)",
    '    assert stock.available("A-100") == 3',
  ]],
  ["pyproject.toml", [
    "[project]",
    'name = "inventory-api"',
    'requires-python = ">=3.11"',
    'dependencies = ["fastapi>=0.110", "sqlalchemy>=2.0", "alembic>=1.13"]',
    "[tool.pytest.ini_options]",
    'addopts = "-q"',
  ]],
  ["docs/reservations.md", [
    "# Reservations",
    "A reservation holds stock for an order. `reserve(stock, order_id, lines)` is the public entry",
    "point; `reserve_stock` is its implementation and may change.",
  ]],
];

/**
 * The bundled sample session: an agent repairs a red test suite in a small Python service (reads,
 * searches, patches, a failing then passing suite), adds a test on request, starts a dev server in
 * the background, is refused a destructive command, waits for an approval, and leaves one type
 * error unfixed. About 210 messages, raw tool outputs, every row with a `_row_id`.
 */
export function sampleSession(): ScriptRow[] {
  const s = new SessionScript(4101);
  s.user(
    "CI on inventory-api has been red since the stock-reservation refactor. Please get pytest green " +
      "again without changing the public API of inventory.reservations, and leave the migrations alone.",
  );
  s.say("I'll reproduce the failure first, then read the reservation code.");
  s.run("", "git status --short", " M inventory/reservations.py\n?? notes.md", 0);
  s.run(
    "",
    "git log --oneline -5",
    "9f1c2ab Refactor stock reservations\n71d0e4c Add release endpoint\n" +
      "3a9b8f0 Pin sqlalchemy 2.0\n0c4d1e2 CI: run mypy\n5e6f7a8 Initial import",
    0,
  );
  s.run("Running the suite.", "python -m pytest -q", PYTEST_RED, 1);
  s.call("", "read_file", { path: "inventory/reservations.py" }, listing(RESERVATIONS));
  s.call(
    "",
    "search_files",
    { pattern: "def reserve", path: "inventory", target: "content" },
    JSON.stringify({
      total_count: 2,
      matches: [
        {
          path: "inventory/reservations.py",
          line: 10,
          content: "def reserve_stock(stock: Stock, order_id: str, lines",
        },
        { path: "inventory/api/legacy.py", line: 4, content: "def reserve_legacy(order):" },
      ],
    }),
  );
  for (const [path, lines] of MODULES) s.call("", "read_file", { path }, listing(lines));
  for (
    const name of [
      "test_api",
      "test_stock",
      "test_release",
      "test_models",
      "test_routes",
      "test_backfill",
    ]
  ) {
    s.call(
      "",
      "read_file",
      { path: `tests/${name}.py`, limit: 40 },
      listing([
        `"""Tests for ${name.slice(5)}."""`,
        "import pytest",
        "from inventory.stock import Stock",
        "",
        `def ${name}_smoke():`,
        '    assert Stock({"A-100": 1}).available("A-100") == 1',
      ]),
    );
  }
  s.say(
    "Three problems: items are stored under 'code' but read as 'sku', release_stock subtracts one " +
      "too few, and the refactor renamed reserve() to reserve_stock() while routes.py still imports " +
      "reserve. docs/reservations.md says reserve() is the public entry point, so it must stay.",
  );
  s.call(
    "Store items under 'sku'.",
    "patch",
    {
      mode: "replace",
      path: "inventory/reservations.py",
      old_string: 'reservation.items.append({"code": code, "quantity": quantity})',
      new_string: 'reservation.items.append({"sku": code, "quantity": quantity})',
    },
    diff("inventory/reservations.py", '{"code": code', '{"sku": code'),
  );
  s.run(
    "",
    "python -m pytest tests/test_reservations.py -q",
    "F...........                                                             [100%]\n" +
      "FAILED tests/test_reservations.py::test_release_stock - KeyError: 'code'\n1 failed, 11 passed in 0.41s",
    1,
  );
  s.call(
    "release_stock still reads 'code' and releases one too few.",
    "patch",
    {
      mode: "replace",
      path: "inventory/reservations.py",
      old_string: 'stock.release(item["code"], item["quantity"] - 1)',
      new_string: 'stock.release(item["sku"], item["quantity"])',
    },
    diff(
      "inventory/reservations.py",
      'stock.release(item["code"], item["quantity"] - 1)',
      'stock.release(item["sku"], item["quantity"])',
    ),
  );
  s.run(
    "",
    "python -m pytest tests/test_reservations.py -q",
    "............                                                             [100%]\n12 passed in 0.38s",
    0,
  );
  s.run(
    "",
    "python -m pytest -q",
    "E.....\nERROR tests/test_api.py - ImportError: cannot import name 'reserve' from 'inventory.reservations'\n" +
      "63 passed, 1 error in 2.61s",
    1,
  );
  s.call(
    "",
    "search_files",
    { pattern: "from inventory.reservations import", path: ".", target: "content" },
    JSON.stringify({
      total_count: 3,
      matches: [
        {
          path: "inventory/api/routes.py",
          line: 2,
          content: "from inventory.reservations import reserve",
        },
        {
          path: "tests/test_reservations.py",
          line: 1,
          content: "from inventory.reservations import reserve_stock, release_stock",
        },
        {
          path: "scripts/backfill.py",
          line: 3,
          content: "from inventory.reservations import reserve",
        },
      ],
    }),
  );
  s.call(
    "Restore the public name as an alias instead of touching the callers.",
    "patch",
    {
      mode: "replace",
      path: "inventory/reservations.py",
      old_string: "def release_stock(",
      new_string:
        "reserve = reserve_stock  # public API, see docs/reservations.md\n\ndef release_stock(",
    },
    diff(
      "inventory/reservations.py",
      "def release_stock(",
      "reserve = reserve_stock  # public API",
    ),
  );
  s.run(
    "",
    "python -m pytest -q",
    "................................................................         [100%]\n64 passed in 2.77s",
    0,
  );
  s.say("The suite is green: 64 passed. Running the linters CI runs next.");
  s.run(
    "",
    "ruff check .",
    "inventory/reservations.py:2:1: F401 [*] `dataclasses.asdict` imported but unused\n" +
      "scripts/backfill.py:7:5: F841 Local variable `count` is assigned to but never used\n" +
      "Found 2 errors.\n[*] 1 fixable with the `--fix` option.",
    1,
  );
  s.run("", "ruff check --fix .", "Found 2 errors (1 fixed, 1 remaining).", 1);
  s.call(
    "",
    "read_file",
    { path: "scripts/backfill.py", offset: 1, limit: 20 },
    listing([
      "import sys",
      "from inventory.reservations import reserve",
      "def main():",
      "    count = 0",
      "    for line in sys.stdin:",
      "        reserve(*line.split())",
    ]),
  );
  s.call(
    "",
    "patch",
    { mode: "replace", path: "scripts/backfill.py", old_string: "    count = 0\n", new_string: "" },
    diff("scripts/backfill.py", "    count = 0", ""),
  );
  s.run("", "ruff check .", "All checks passed!", 0);
  s.run(
    "",
    "mypy inventory",
    'inventory/reservations.py:10: error: Incompatible return value type (got "Reservation | None", expected "Reservation")  [return-value]\n' +
      "Found 1 error in 1 file (checked 9 source files)",
    1,
  );
  s.call(
    "",
    "read_file",
    { path: "inventory/db.py" },
    listing([
      "from sqlalchemy.orm import DeclarativeBase",
      "class Base(DeclarativeBase):",
      "    pass",
    ]),
  );
  s.user("Great. Also add a test that reserving a negative quantity raises ValueError.");
  s.call(
    "",
    "write_file",
    {
      path: "tests/test_negative_quantity.py",
      content:
        "import pytest\nfrom inventory.reservations import reserve\nfrom inventory.stock import Stock\n\n" +
        "def test_negative_quantity_is_rejected():\n    with pytest.raises(ValueError):\n" +
        '        reserve(Stock({"A-100": 5}), "o-9", [("A-100", -1)])\n',
    },
    JSON.stringify({ success: true, bytes_written: 232 }),
  );
  s.run(
    "",
    "python -m pytest tests/test_negative_quantity.py -q",
    "F                                                                        [100%]\n" +
      "E       Failed: DID NOT RAISE <class 'ValueError'>\n" +
      "FAILED tests/test_negative_quantity.py::test_negative_quantity_is_rejected - Failed: DID NOT RAISE <class 'ValueError'>\n" +
      "1 failed in 0.12s",
    1,
  );
  s.call(
    "Validate quantities before holding stock.",
    "patch",
    {
      mode: "replace",
      path: "inventory/reservations.py",
      old_string: "    for code, quantity in lines:\n",
      new_string:
        '    for code, quantity in lines:\n        if quantity <= 0:\n            raise ValueError(f"quantity must be positive: {quantity}")\n',
    },
    diff(
      "inventory/reservations.py",
      "    for code, quantity in lines:",
      "        if quantity <= 0: raise ValueError",
    ),
  );
  s.run(
    "",
    "python -m pytest tests/test_negative_quantity.py -q",
    ".                                                                        [100%]\n1 passed in 0.09s",
    0,
  );
  s.run(
    "",
    "python -m pytest -q",
    ".................................................................        [100%]\n65 passed in 2.80s",
    0,
  );
  for (
    const path of [
      "inventory/__init__.py",
      "inventory/api/__init__.py",
      "tests/conftest.py",
      "alembic.ini",
      "alembic/env.py",
    ]
  ) {
    s.call(
      "",
      "read_file",
      { path },
      listing([`# ${path}`, '"""Module docstring."""', "", "__all__ = []"]),
    );
  }
  for (
    const test of [
      "hold",
      "release",
      "available",
      "oversell",
      "zero_level",
      "unknown_sku",
      "release_twice",
      "hold_many",
      "levels_copy",
      "negative_level",
    ]
  ) {
    s.run(
      "",
      `python -m pytest tests/test_stock.py -q -k ${test}`,
      `.                                                                        [100%]\n1 passed, 41 deselected in 0.1${
        test.length % 10
      }s`,
      0,
    );
  }
  s.run(
    "",
    "git diff --stat",
    " inventory/reservations.py        | 7 +++++--\n scripts/backfill.py              | 1 -\n tests/test_negative_quantity.py | 8 ++++++++\n 3 files changed, 13 insertions(+), 3 deletions(-)",
    0,
  );
  for (let round = 1; round <= 12; round++) {
    s.run(
      round === 1 ? "Checking the suite is stable across random orders." : "",
      `python -m pytest -q -p random_order --random-order-seed=${round * 7919}`,
      `.................................................................        [100%]\n65 passed in 2.${
        70 + round
      }s`,
      0,
    );
  }

  s.user(
    "Now start the dev server and check POST /reservations by hand. Do not touch the database volume in ./data.",
  );
  s.background(
    "Starting uvicorn in the background.",
    "uvicorn inventory.api:app --port 8000",
    "proc_51c0e2",
    { workdir: "/home/dev/inventory-api" },
  );
  s.process("poll", "proc_51c0e2", {
    status: "running",
    output: "INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)",
  });
  s.run(
    "",
    'curl -s -X POST localhost:8000/reservations -H \'content-type: application/json\' -d \'{"order_id": "o-1", "lines": [["A-100", 2]]}\'',
    '{"detail":"Internal Server Error"}',
    0,
  );
  s.process("log", "proc_51c0e2", {
    status: "running",
    output: "ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n" +
      '  File "/home/dev/inventory-api/inventory/api/routes.py", line 6, in create_reservation\n' +
      "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) no such table: reservations",
  });
  s.run(
    "The dev database has no tables yet.",
    "alembic upgrade head",
    "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) unable to open database file\nERROR: alembic failed",
    1,
  );
  s.call(
    "",
    "terminal",
    { command: "rm -rf ./data/db && alembic upgrade head" },
    JSON.stringify({
      status: "blocked",
      error: "Command denied by user: rm -rf on ./data/db deletes the database volume",
    }),
  );
  s.call(
    "",
    "terminal",
    { command: "sudo chown -R dev:dev ./data" },
    JSON.stringify({
      status: "pending_approval",
      message: "sudo requires approval: waiting for the user",
    }),
  );
  s.run(
    "Using a throwaway database instead.",
    "DATABASE_URL=sqlite:///./tmp/dev.db alembic upgrade head",
    "INFO  [alembic.runtime.migration] Running upgrade  -> 3f2a, create reservations",
    0,
  );
  s.run(
    "",
    "mypy inventory",
    'inventory/reservations.py:10: error: Incompatible return value type (got "Reservation | None", expected "Reservation")  [return-value]\nFound 1 error in 1 file (checked 9 source files)',
    1,
  );
  s.call(
    "",
    "read_file",
    { path: "inventory/reservations.py", offset: 8, limit: 12 },
    listing(RESERVATIONS.slice(7, 15), 8),
  );
  s.say(
    "mypy still reports the Optional return at reservations.py:10; fixing it needs a decision on " +
      "whether reserve() may return None for empty orders, so I am leaving it for you.",
  );
  s.process("kill", "proc_51c0e2", {
    status: "killed",
    session_id: "proc_51c0e2",
    completion_reason: "killed",
    output: "proc_51c0e2 terminated",
  });
  s.background(
    "",
    "DATABASE_URL=sqlite:///./tmp/dev.db uvicorn inventory.api:app --port 8000",
    "proc_8d77aa",
    { workdir: "/home/dev/inventory-api" },
  );
  s.process("poll", "proc_8d77aa", {
    status: "running",
    output: "INFO:     Application startup complete.",
  });
  for (let order = 1; order <= 6; order++) {
    s.run(
      order === 1 ? "Exercising the endpoint with a few orders." : "",
      `curl -s -X POST localhost:8000/reservations -H 'content-type: application/json' -d '{"order_id": "o-${order}", "lines": [["A-100", 1]]}'`,
      `{"order_id":"o-${order}","items":[{"sku":"A-100","quantity":1}]}`,
      0,
    );
  }
  for (let order = 1; order <= 6; order++) {
    s.run(
      "",
      `curl -s localhost:8000/reservations/o-${order}`,
      `{"order_id":"o-${order}","items":[{"sku":"A-100","quantity":1}]}`,
      0,
    );
  }
  for (let poll = 0; poll < 4; poll++) {
    s.process("log", "proc_8d77aa", {
      status: "running",
      output: `INFO:     127.0.0.1:5${poll}812 - "POST /reservations HTTP/1.1" 201 Created`,
    });
  }
  s.run(
    "",
    'curl -s -X POST localhost:8000/reservations -H \'content-type: application/json\' -d \'{"order_id": "o-7", "lines": [["A-100", -2]]}\'',
    '{"detail":"quantity must be positive: -2"}',
    0,
  );
  s.process("kill", "proc_8d77aa", {
    status: "killed",
    session_id: "proc_8d77aa",
    completion_reason: "killed",
    output: "proc_8d77aa terminated",
  });
  s.run(
    "",
    "git status --short",
    " M inventory/reservations.py\n M scripts/backfill.py\n?? notes.md\n?? tests/test_negative_quantity.py\n?? tmp/",
    0,
  );
  s.say(
    "Done: pytest is green (65 passed), reserve() is restored as the public alias, the negative " +
      "quantity test is in place, and POST /reservations works against a throwaway database. The " +
      "database volume was not touched (that command was refused) and chown is waiting for your approval.",
  );
  return s.rows;
}
