/** `vcc project` and `vcc demo` as a user runs them: inputs, flags, formats and one-line errors. */
import assert from "node:assert/strict";
import { main, type Output } from "../../src/cli/mod.ts";

interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function vcc(...args: string[]): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const out: Output = {
    stdout: (text) => void (stdout += text),
    stderr: (line) => void (stderr += `${line}\n`),
  };
  const code = await main(args, out);
  return { code, stdout, stderr };
}

const WINDOW = [
  { role: "user", _row_id: 10, content: "Rename the config loader." },
  {
    role: "assistant",
    _row_id: 11,
    content: "",
    tool_calls: [{
      id: "a",
      type: "function",
      function: { name: "terminal", arguments: '{"command":"pytest -q"}' },
    }],
  },
  {
    role: "tool",
    _row_id: 12,
    tool_call_id: "a",
    tool_name: "terminal",
    content: '{"output":"2 passed","exit_code":0}',
  },
];

// What WINDOW projects to, below the header line: written out and reviewed, not computed.
const SECTIONS = `## Historical Task Snapshot
[#10] Rename the config loader.

## Goal
[#10] Rename the config loader.

## Facts from Outputs
- [#12] terminal tally: 2 passed

## Commands Run
- [#11] \`pytest -q\` — succeeded (exit 0) [#12]

## Detailed Session Log (oldest first)
[#10] user: Rename the config loader.
[#12] ← terminal: 2 passed
`;

/** Checks a printed projection of WINDOW: its header names `session`, its sections are SECTIONS. */
function assertProjection(stdout: string, session: string): void {
  const [header, ...rest] = stdout.split("\n\n");
  assert.match(header ?? "", new RegExp(`^\\(vcc projection of session '${session}'`));
  assert.equal(rest.join("\n\n"), SECTIONS);
}

function tempFile(text: string, suffix = ".json"): string {
  const path = Deno.makeTempFileSync({ suffix });
  Deno.writeTextFileSync(path, text);
  return path;
}

Deno.test("vcc project prints the projection of a JSON array file", async () => {
  const result = await vcc("project", tempFile(JSON.stringify(WINDOW)), "--session-id", "s9");
  assert.equal(result.code, 0);
  assertProjection(result.stdout, "s9");
  assert.equal(result.stderr, "");
});

Deno.test("vcc project reads JSON Lines and the object form, flags overriding the object", async () => {
  const lines = await vcc(
    "project",
    tempFile(WINDOW.map((row) => JSON.stringify(row)).join("\n"), ".jsonl"),
  );
  assert.match(lines.stdout, /session <this session>/);
  assert.ok(lines.stdout.endsWith(SECTIONS));
  const object = { messages: WINDOW, session_id: "from-file", focus: "config", budget_tokens: 100 };
  const fromObject = await vcc("project", tempFile(JSON.stringify(object)), "--format", "json");
  const report = JSON.parse(fromObject.stdout);
  assert.match(report.body, /session 'from-file'/);
  assert.equal(report.stats.budgetChars, 400, "the object's budget is used");
  assert.ok(report.body.length <= 400);
  const overridden = await vcc("project", tempFile(JSON.stringify(object)), "--session-id", "flag");
  assert.match(overridden.stdout, /session 'flag'/);
});

Deno.test("vcc project merges --previous and reports stats with --format json", async () => {
  const first = await vcc("project", tempFile(JSON.stringify(WINDOW)), "--session-id", "s");
  const previous = tempFile(first.stdout, ".md");
  const next = [{ role: "user", _row_id: 20, content: "Now update the docs." }];
  const result = await vcc(
    "project",
    tempFile(JSON.stringify(next)),
    "--previous",
    previous,
    "--format",
    "json",
  );
  const report = JSON.parse(result.stdout);
  assert.equal(report.stats.merged, true);
  assert.equal(report.stats.sections.commands.shown, 1);
  assert.match(report.body, /\[#10\] Rename the config loader\.\n\[#20\] Now update the docs\./);
  assert.equal(typeof report.elapsedMs, "number");
});

Deno.test("vcc project reads standard input", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "main.ts", "project", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(WINDOW)));
  await writer.close();
  const { code, stdout } = await child.output();
  assert.equal(code, 0);
  assert.ok(new TextDecoder().decode(stdout).endsWith(SECTIONS));
});

Deno.test("vcc project reports user errors in one line with exit code 2", async (t) => {
  const cases: ReadonlyArray<readonly [string, string[], RegExp]> = [
    [
      "a missing file",
      ["project", "/nonexistent/window.json"],
      /^vcc: cannot read \/nonexistent\/window\.json: no such file\n$/,
    ],
    ["a directory", ["project", Deno.makeTempDirSync()], /^vcc: cannot read .*: is a directory\n$/],
    [
      "invalid JSON",
      ["project", tempFile('[{"role": "user",\n  "content": oops}]')],
      /^vcc: .*: invalid JSON at line 2, column 14: .*\n$/,
    ],
    [
      "invalid JSON Lines",
      ["project", tempFile('{"role":"user"}\n{"role":\n', ".jsonl")],
      /^vcc: .*: invalid JSON at line 2, column \d+: .*\n$/,
    ],
    [
      "a wrong shape",
      ["project", tempFile('"just a string"')],
      /^vcc: .*: expected a JSON array of messages or an object with "messages"\n$/,
    ],
    [
      "messages that are not a list",
      ["project", tempFile('{"messages": 3}')],
      /^vcc: .*: "messages" must be an array\n$/,
    ],
    [
      "an empty file",
      ["project", tempFile("")],
      /^vcc: .*: empty input, expected a JSON array of messages\n$/,
    ],
    [
      "a bad budget",
      ["project", tempFile('{"messages": [], "budget_tokens": -5}')],
      /^vcc: .*"budget_tokens" must be a positive integer\n$/,
    ],
    ["an unknown format", ["project", tempFile("[]"), "--format", "xml"], /xml/],
  ];
  for (const [name, args, pattern] of cases) {
    await t.step(name, async () => {
      const result = await vcc(...args);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, pattern);
      assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
    });
  }
});

Deno.test("vcc demo prints the merged projection of the bundled sample session", async () => {
  const result = await vcc("demo");
  assert.equal(result.code, 0);
  for (
    const heading of [
      "## Historical Task Snapshot",
      "## Goal",
      "## Blocked",
      "## Errors & Fixes",
      "## Errors Seen",
      "## Relevant Files",
      "## Commands Run",
      "## Detailed Session Log (oldest first)",
    ]
  ) assert.ok(result.stdout.includes(`${heading}\n`), heading);
  assert.match(result.stdout, /→ fixed at \[#\d+\]/);
  assert.match(result.stdout, /— blocked \[#\d+\]: Command denied by user/);
  assert.match(result.stdout, /— pending approval \[#\d+\]/);
  assert.match(result.stdout, /started in background/);
  assert.match(result.stderr, /^vcc demo: a sample session of 2\d\d messages compacted twice/);
  assert.equal((await vcc("demo")).stdout, result.stdout, "same bytes every run");
});

Deno.test("vcc --help and --version answer with exit code 0", async () => {
  const help = await vcc("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /project/);
  const version = await vcc("--version");
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});
