/** `vcc project` and `vcc demo` as a user runs them: inputs, flags, formats and one-line errors. */
import assert from "node:assert/strict";
import { main, type Output } from "../../src/cli/mod.ts";
import { demoRun } from "../../src/demo/demo_projection.ts";

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
      /^vcc: .*"budget_tokens" must be an integer from 1 to 1,000,000,000\n$/,
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

Deno.test("vcc project names the broken line of JSON Lines and the column in that line", async (t) => {
  const lines = [1, 2, 3, 4, 5].map((n) =>
    JSON.stringify({ role: "user", _row_id: n, content: `request number ${n}` })
  );
  // Each way of breaking a line, and the column (1-based, in that line) where it breaks.
  const breakages: ReadonlyArray<
    readonly [string, (line: string) => string, (line: string) => number]
  > = [
    [
      "cut inside a string",
      (line) => line.slice(0, line.indexOf("number")),
      (line) => line.indexOf("number") + 1,
    ],
    ["plain text", () => "Traceback (most recent call last):", () => 1],
    ["a wrong closing bracket", (line) => `${line.slice(0, -1)}]`, (line) => line.length],
    ["text after the object", (line) => `${line} x`, (line) => line.length + 2],
    ["a missing value", (line) => line.replace(':"user"', ":"), (line) => line.indexOf(":") + 2],
  ];
  for (const [name, broken, column] of breakages) {
    for (const position of [1, 3, 5]) {
      await t.step(`${name} on line ${position}`, async () => {
        const input = lines.map((line, index) => index + 1 === position ? broken(line) : line);
        const file = tempFile(`${input.join("\n")}\n`, ".jsonl");
        const result = await vcc("project", file);
        assert.equal(result.code, 2);
        assert.equal(result.stdout, "");
        const expected = column(lines[position - 1]!);
        assert.match(
          result.stderr,
          new RegExp(`^vcc: ${file}: invalid JSON at line ${position}, column ${expected}: .+\n$`),
        );
      });
    }
  }
  await t.step("a line that is JSON but no message is skipped and counted", async () => {
    const input = [...lines.slice(0, 2), "[1]", ...lines.slice(2)].join("\n");
    const result = await vcc("project", tempFile(input, ".jsonl"), "--format", "json");
    assert.equal(result.code, 0);
    const { stats } = JSON.parse(result.stdout);
    assert.equal(stats.inputMessages, 6);
    assert.equal(stats.skippedMessages, 1);
  });
});

Deno.test("vcc project reads a file that starts with a byte order mark", async () => {
  const plain = await vcc("project", tempFile(JSON.stringify(WINDOW)), "--session-id", "s9");
  const lines = WINDOW.map((row) => JSON.stringify(row)).join("\n");
  for (const text of [JSON.stringify(WINDOW), lines]) {
    const result = await vcc("project", tempFile(`\ufeff${text}`), "--session-id", "s9");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, plain.stdout);
  }
});

Deno.test("vcc project states what is wrong with JSON in its own words", async (t) => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ["Markdown", "# Notes\n\nSome text.\n", "line 1, column 1: expected a value but found '#'"],
    [
      "a trailing comma",
      '[{"role": "user"},\n]',
      "line 2, column 1: expected a value but found ']'",
    ],
    [
      "an unclosed array",
      "[".repeat(100_000),
      "line 1, column 100001: expected a value but found the end of the input",
    ],
    ["a bad escape", '["a\\q"]', "line 1, column 5: expected an escape"],
    ["a raw line break in a string", '["a\nb"]', "line 1, column 4: found U+000A inside a string"],
  ];
  for (const [name, text, where] of cases) {
    await t.step(name, async () => {
      const file = tempFile(text);
      const result = await vcc("project", file);
      assert.equal(result.code, 2);
      assert.ok(result.stderr.startsWith(`vcc: ${file}: invalid JSON at ${where}`), result.stderr);
      assert.doesNotMatch(result.stderr, /is not valid JSON|Unexpected token|position \d/);
      assert.equal(result.stderr.split("\n").length, 2, "one line");
    });
  }
});

Deno.test("vcc project and vcc bench recall report an unreadable file alike", async () => {
  const missing = "/nonexistent/window.json";
  const expected = `vcc: cannot read ${missing}: no such file\n`;
  for (const args of [["project", missing], ["bench", "recall", missing]]) {
    const result = await vcc(...args);
    assert.equal(result.code, 2);
    assert.equal(result.stderr, expected, args.join(" "));
  }
  const markdown = tempFile("# Real age\n");
  const recall = await vcc("bench", "recall", markdown);
  assert.equal(recall.code, 2);
  assert.equal(
    recall.stderr,
    `vcc: ${markdown}: invalid JSON at line 1, column 1: expected a value but found '#'\n`,
  );
});

Deno.test("a budget out of range is refused alike as a flag and in the input object", async (t) => {
  const rule = "must be an integer from 1 to 1,000,000,000";
  for (const value of ["0", "-3", "2.5", "x", "1000000001", "9007199254740993"]) {
    await t.step(`--budget-tokens ${value}`, async () => {
      for (const command of [["project", tempFile("[]")], ["preview", "s1"]]) {
        const result = await vcc(...command, "--budget-tokens", value);
        assert.equal(result.code, 2);
        assert.equal(result.stdout, "");
        assert.equal(result.stderr.split("\n")[0], `vcc: \`--budget-tokens\`: ${rule}`);
      }
    });
  }
  for (const value of [0, -3, 2.5, "2000", 1e20, 1_000_000_001]) {
    await t.step(`"budget_tokens": ${JSON.stringify(value)}`, async () => {
      const file = tempFile(JSON.stringify({ messages: WINDOW, budget_tokens: value }));
      const result = await vcc("project", file);
      assert.equal(result.code, 2);
      assert.equal(result.stderr, `vcc: ${file}: "budget_tokens" ${rule}\n`);
    });
  }
  await t.step("the ends of the range are accepted", async () => {
    for (const value of [1, 1_000_000_000]) {
      const file = tempFile(JSON.stringify({ messages: [], budget_tokens: value }));
      const object = await vcc("project", file);
      const flag = await vcc("project", tempFile("[]"), "--budget-tokens", String(value));
      for (const result of [object, flag]) assert.doesNotMatch(result.stderr, /must be an integer/);
    }
  });
});

Deno.test("vcc project refuses a budget too small for the header, naming the least that holds it", async () => {
  const file = tempFile(JSON.stringify(WINDOW));
  const header = (await vcc("project", file)).stdout.split("\n\n")[0]!;
  const least = Math.ceil(header.length / 4);
  const small = await vcc("project", file, "--budget-tokens", String(least - 1));
  assert.equal(small.code, 2);
  assert.equal(small.stdout, "");
  assert.equal(
    small.stderr,
    `vcc: a budget of ${least - 1} tokens cannot hold the projection's header; the least that ` +
      `does is ${least} tokens\n`,
  );
  const enough = await vcc("project", file, "--budget-tokens", String(least));
  assert.equal(enough.code, 0);
  assert.equal(enough.stdout, `${header}\n`);
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

Deno.test("the demo's compactions never part a call from its result, as Hermes's cuts never do", async () => {
  const run = demoRun();
  const windows = { first: run.first.window, second: run.second.window };
  for (const [name, window] of Object.entries(windows)) {
    const calls = new Set<unknown>(
      window.flatMap((row) =>
        Array.isArray(row.tool_calls) ? row.tool_calls.map((call: { id: string }) => call.id) : []
      ),
    );
    const results = new Set(
      window.filter((row) => row.role === "tool").map((row) => row.tool_call_id),
    );
    assert.deepEqual([...results].filter((id) => !calls.has(id)), [], `${name}: results alone`);
    assert.deepEqual([...calls].filter((id) => !results.has(id)), [], `${name}: calls alone`);
  }
  const recall = await vcc("bench", "recall", "--demo", "--budgets", "4000");
  assert.doesNotMatch(recall.stdout, /results without their call/);
});

Deno.test("vcc --help and --version answer with exit code 0", async () => {
  const help = await vcc("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /project/);
  const version = await vcc("--version");
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});
