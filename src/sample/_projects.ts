/**
 * The made-up software projects generated sessions work on: their files, commands, the failures
 * their commands produce and the source lines their files contain.
 *
 * @module
 */

/** A failure a project's test or build command can report, and the file it points at. */
export interface Failure {
  /** The error name as it appears in output (`ImportError`, `TS2345`, …). */
  readonly name: string;
  /** One line of output naming the error. */
  readonly line: string;
  /** Project-relative file the failure is in. */
  readonly file: string;
  /** The line a patch removes and the line it puts in its place. */
  readonly before: string;
  readonly after: string;
}

/** One kind of project (Python, Node, Rust, Go) with everything a session needs from it. */
export interface ProjectKind {
  readonly language: string;
  readonly files: readonly string[];
  readonly testCommand: string;
  readonly focusedTestCommands: readonly string[];
  readonly buildCommand: string;
  readonly devServerCommand: string;
  readonly lintCommands: readonly string[];
  readonly passLines: readonly string[];
  readonly failures: readonly Failure[];
  readonly codeLines: readonly string[];
  readonly logLines: readonly string[];
  readonly missingTool: string;
}

/** Project directory names; a session's project lives at `/home/dev/<name>`. */
export const PROJECT_NAMES = [
  "ledger",
  "tidepool",
  "quartz-api",
  "mailroom",
  "orbit",
  "fernwood",
  "cobalt-cli",
  "harbor",
] as const;

/** The project kinds, each with its own toolchain vocabulary. */
export const PROJECT_KINDS: readonly ProjectKind[] = [
  {
    language: "python",
    files: [
      "app/core.py",
      "app/parser.py",
      "app/cli.py",
      "app/storage.py",
      "tests/test_core.py",
      "tests/test_parser.py",
      "pyproject.toml",
      "README.md",
    ],
    testCommand: "pytest -q",
    focusedTestCommands: [
      "python -m pytest tests/test_parser.py -x",
      "pytest tests/test_core.py -k roundtrip -q",
      "pytest -q --maxfail=1 tests/",
    ],
    buildCommand: "pip install -e .",
    devServerCommand: "python -m http.server 8000",
    lintCommands: ["ruff check .", "mypy app", "python -m compileall -q app"],
    passLines: ["48 passed in 1.24s", "12 passed, 1 skipped in 0.41s", "All checks passed!"],
    failures: [
      {
        name: "ImportError",
        line: "E   ImportError: cannot import name 'parse' from 'app.core'",
        file: "app/core.py",
        before: "def _parse(text: str) -> dict:",
        after: "def parse(text: str) -> dict:",
      },
      {
        name: "ModuleNotFoundError",
        line: "ModuleNotFoundError: No module named 'yaml'",
        file: "pyproject.toml",
        before: 'dependencies = ["click>=8"]',
        after: 'dependencies = ["click>=8", "pyyaml>=6"]',
      },
      {
        name: "KeyError",
        line: "E   KeyError: 'created_at'",
        file: "app/storage.py",
        before: '    return row["created_at"]',
        after: '    return row.get("created_at", row["timestamp"])',
      },
      {
        name: "AssertionError",
        line: "E   AssertionError: assert 'a,b' == ['a', 'b']",
        file: "app/parser.py",
        before: "    return text",
        after: '    return text.split(",")',
      },
      {
        name: "TypeError",
        line: "E   TypeError: load() missing 1 required positional argument: 'path'",
        file: "app/cli.py",
        before: "    data = load()",
        after: "    data = load(args.path)",
      },
    ],
    codeLines: [
      "import json",
      "from pathlib import Path",
      "from typing import Iterable",
      "",
      "def parse(text: str) -> dict:",
      '    """Parse one record line into a dict."""',
      '    fields = text.strip().split(",")',
      "    return dict(zip(HEADER, fields))",
      "class Store:",
      "    def __init__(self, path: Path) -> None:",
      "        self.path = path",
      "        self._rows: list[dict] = []",
      "    def load(self) -> None:",
      "        with self.path.open() as handle:",
      "            self._rows = [json.loads(line) for line in handle]",
      "def test_roundtrip(tmp_path):",
      '    store = Store(tmp_path / "rows.jsonl")',
      "    assert store.load() is None",
    ],
    logLines: [
      "============================= test session starts ==============================",
      "platform linux -- Python 3.12.4, pytest-8.3.2, pluggy-1.5.0",
      "rootdir: /home/dev/project",
      "collected 48 items",
      "tests/test_core.py ........F.....                                         [ 29%]",
      "tests/test_parser.py ..............                                       [ 58%]",
      "Traceback (most recent call last):",
      '  File "/home/dev/project/app/cli.py", line 42, in main',
      "    data = load()",
      "=========================== short test summary info ============================",
    ],
    missingTool: "rg",
  },
  {
    language: "node",
    files: [
      "src/index.ts",
      "src/server.ts",
      "src/routes/users.ts",
      "src/config.ts",
      "tests/server.test.ts",
      "package.json",
      "tsconfig.json",
    ],
    testCommand: "npm test",
    focusedTestCommands: ["npx vitest run tests/server.test.ts", "npm test -- --runInBand"],
    buildCommand: "npm run build",
    devServerCommand: "npm run dev",
    lintCommands: ["npx tsc --noEmit", "npx eslint src", "npm ls --depth=0"],
    passLines: ["Tests  24 passed (24)", "✓ tests/server.test.ts (9 tests) 412ms", "built in 3.1s"],
    failures: [
      {
        name: "ENOENT",
        line: "Error: ENOENT: no such file or directory, open '/home/dev/project/config.json'",
        file: "src/config.ts",
        before: 'const CONFIG_PATH = "config.json";',
        after: 'const CONFIG_PATH = new URL("../config.json", import.meta.url);',
      },
      {
        name: "TypeError",
        line: "TypeError: Cannot read properties of undefined (reading 'id')",
        file: "src/routes/users.ts",
        before: "  return res.json({ id: user.id });",
        after: "  return user ? res.json({ id: user.id }) : res.status(404).end();",
      },
      {
        name: "TS2345",
        line:
          "src/server.ts(18,21): error TS2345: Argument of type 'string' is not assignable to " +
          "parameter of type 'number'.",
        file: "src/server.ts",
        before: "app.listen(process.env.PORT);",
        after: "app.listen(Number(process.env.PORT ?? 3000));",
      },
      {
        name: "SyntaxError",
        line: "SyntaxError: Unexpected token '}' in JSON at position 112",
        file: "package.json",
        before: '    "test": "vitest run",',
        after: '    "test": "vitest run"',
      },
    ],
    codeLines: [
      'import express from "express";',
      'import { loadConfig } from "./config.js";',
      "export async function start(port: number): Promise<void> {",
      "  const app = express();",
      '  app.get("/users/:id", getUser);',
      "  await new Promise((resolve) => app.listen(port, resolve));",
      "}",
      "export function getUser(req: Request, res: Response) {",
      "  const user = users.get(req.params.id);",
      '  describe("GET /users/:id", () => {',
      '    it("returns 404 for unknown ids", async () => {',
      "      expect(response.status).toBe(404);",
    ],
    logLines: [
      "> project@1.4.0 test",
      "> vitest run",
      " RUN  v2.1.8 /home/dev/project",
      " ❯ tests/server.test.ts (9 tests | 1 failed) 388ms",
      "   × GET /users/:id > returns 404 for unknown ids",
      "npm ERR! code ELIFECYCLE",
      "npm ERR! errno 1",
      "    at Object.<anonymous> (/home/dev/project/src/server.ts:18:21)",
      "    at Module._compile (node:internal/modules/cjs/loader:1358:14)",
    ],
    missingTool: "pnpm",
  },
  {
    language: "rust",
    files: ["src/main.rs", "src/lib.rs", "src/config.rs", "tests/integration.rs", "Cargo.toml"],
    testCommand: "cargo test",
    focusedTestCommands: ["cargo test config::tests -- --nocapture", "cargo test --release"],
    buildCommand: "cargo build --release",
    devServerCommand: "cargo run -- serve --port 8080",
    lintCommands: ["cargo clippy -- -D warnings", "cargo fmt --check"],
    passLines: [
      "test result: ok. 31 passed; 0 failed; 0 ignored",
      "Finished `release` profile [optimized] target(s) in 41.02s",
    ],
    failures: [
      {
        name: "E0308",
        line: "error[E0308]: mismatched types: expected `u16`, found `&str`",
        file: "src/config.rs",
        before: "    port: args.port,",
        after: "    port: args.port.parse()?,",
      },
      {
        name: "E0425",
        line: "error[E0425]: cannot find function `load_config` in this scope",
        file: "src/main.rs",
        before: "use crate::config::read_config;",
        after: "use crate::config::load_config;",
      },
      {
        name: "panicked",
        line: "thread 'config::tests::defaults' panicked at src/config.rs:88:9: " +
          "called `Option::unwrap()` on a `None` value",
        file: "src/config.rs",
        before: "        let port = value.unwrap();",
        after: "        let port = value.unwrap_or(8080);",
      },
    ],
    codeLines: [
      "use std::path::PathBuf;",
      "#[derive(Debug, Clone, serde::Deserialize)]",
      "pub struct Config {",
      "    pub port: u16,",
      "    pub data_dir: PathBuf,",
      "}",
      "pub fn load_config(path: &Path) -> anyhow::Result<Config> {",
      "    let text = std::fs::read_to_string(path)?;",
      "    Ok(toml::from_str(&text)?)",
      "#[cfg(test)]",
      "mod tests {",
    ],
    logLines: [
      "   Compiling harbor v0.3.1 (/home/dev/project)",
      "warning: unused variable: `entry`",
      "    Running tests/a.rs",
      "running 31 tests",
      "test config::tests::defaults ... FAILED",
      "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      'error: could not compile `harbor` (bin "harbor") due to 1 previous error',
    ],
    missingTool: "cargo-nextest",
  },
  {
    language: "go",
    files: [
      "cmd/server/main.go",
      "internal/store/store.go",
      "internal/store/store_test.go",
      "go.mod",
    ],
    testCommand: "go test ./...",
    focusedTestCommands: ["go test ./internal/store -run TestLoad -v", "go vet ./..."],
    buildCommand: "go build ./cmd/server",
    devServerCommand: "go run ./cmd/server -addr :8080",
    lintCommands: ["gofmt -l .", "go vet ./...", "staticcheck ./..."],
    passLines: ["ok  \tgithub.com/dev/orbit/internal/store\t0.214s", "PASS"],
    failures: [
      {
        name: "undefined",
        line: "internal/store/store.go:31:9: undefined: parseConfig",
        file: "internal/store/store.go",
        before: "\tcfg, err := parseConfig(raw)",
        after: "\tcfg, err := ParseConfig(raw)",
      },
      {
        name: "panic",
        line: "panic: runtime error: index out of range [3] with length 3",
        file: "internal/store/store.go",
        before: "\treturn rows[len(rows)]",
        after: "\treturn rows[len(rows)-1]",
      },
    ],
    codeLines: [
      "package store",
      'import "encoding/json"',
      "type Store struct {",
      "\tpath string",
      "\trows []Row",
      "}",
      "func (s *Store) Load() error {",
      "\traw, err := os.ReadFile(s.path)",
      "\tif err != nil {",
      '\t\treturn fmt.Errorf("load %s: %w", s.path, err)',
      "func TestLoad(t *testing.T) {",
    ],
    logLines: [
      "=== RUN   TestLoad",
      "--- FAIL: TestLoad (0.00s)",
      "FAIL\tgithub.com/dev/orbit/internal/store\t0.011s",
      "goroutine 7 [running]:",
      "github.com/dev/orbit/internal/store.(*Store).Last(...)",
    ],
    missingTool: "staticcheck",
  },
];
