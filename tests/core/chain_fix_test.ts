/**
 * Errors & Fixes links a failed command to a later command line that ran it among steps joined by
 * `&&`, in the same directory, and exited 0: the line's status proves the command succeeded. Sessions are
 * generated; the oracle is the shell's rule for `&&`, `;`, `||` and `|` written out here.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";
import { callRows, type Row } from "../support/call_rows.ts";

const COMMANDS = ["bin/rails db:migrate", "make build", "npm run build", "pytest -q tests/unit"];
const AFTER = ["git diff --stat", "echo done", "ls build", "git status -s"];

// Steps a later line may run before the command: what fixes it, or a change of directory.
const BEFORE = ["cp config.example.yml config.yml", "git stash pop", "cd /srv/other"];

Deno.test("a failed command is fixed at a later line that ran it among steps joined by `&&` and exited 0", () => {
  const random = new SeededRandom(29);
  for (let trial = 0; trial < 200; trial++) {
    const command = random.pick(COMMANDS);
    const workdir = random.pick(["/srv/app", "/srv/api"]);
    const laterWorkdir = random.chance(0.8) ? workdir : "/srv/other";
    const before = random.chance(0.5) ? random.pick(BEFORE) : undefined;
    const beforeJoiner = random.pick(["&&", "&&", ";", "||"]);
    const joiner = random.pick(["&&", "&&", ";", "||"]);
    const after = before === undefined || random.chance(0.5) ? random.pick(AFTER) : undefined;
    const tail = after !== undefined && random.chance(0.3) ? " | tail -5" : "";
    const exit = random.chance(0.75) ? 0 : 1;
    const later = [
      before === undefined ? "" : `${before} ${beforeJoiner} `,
      command,
      after === undefined ? "" : ` ${joiner} ${after}${tail}`,
    ].join("");
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Get it working." },
      ...callRows(2, "terminal", { command, workdir }, { output: "Error: boom", exit_code: 1 }),
      ...callRows(4, "terminal", { command: later, workdir: laterWorkdir }, {
        output: "ok",
        exit_code: exit,
      }),
    ];
    const body = project(rows, { budgetTokens: 4_000 }).body;
    const entry = body.split("\n").find((line) => line.startsWith("- [#2] terminal ")) ?? "";
    // `a && b` exits 0 only when `a` did; `a; b` and `a || b` say nothing of `a`; `a && b | tail`
    // runs the pipeline only after `a` succeeded; a `cd` before it runs it elsewhere. (`x; a` would
    // prove `a` too; the reader claims less.)
    const proved = exit === 0 && laterWorkdir === workdir &&
      (before === undefined || (beforeJoiner === "&&" && !before.startsWith("cd "))) &&
      (after === undefined || joiner === "&&");
    assert.equal(entry.endsWith(" → fixed at [#5]"), proved, `${later} (${exit}): ${entry}`);
  }
});

Deno.test("no fix is claimed from a line that ran the command elsewhere or not at all", () => {
  // [the later calls (command, working directory), whether the failed `make build` is fixed]
  const cases: ReadonlyArray<readonly [ReadonlyArray<readonly [string, string?]>, boolean]> = [
    [[["(cd docs && make build && ls dist)"]], false],
    [[["( cd docs && make build && echo ok )"]], false],
    // Hermes keeps the directory a call changed to for the calls after it.
    [[["cd docs"], ["make build && ls _build"]], false],
    [[["cd docs && make html"], ["make build && ls _build"]], false],
    [[["ls", "/srv/app/docs"], ["make build && ls _build"]], false],
    [[["git status"], ["make build && ls _build"]], true],
    // What follows `#` is a comment: it never ran.
    [[["make lint  # then: && make build"]], false],
  ];
  for (const [later, fixed] of cases) {
    let id = 4;
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Build it." },
      ...callRows(2, "terminal", { command: "make build" }, { output: "Error 2", exit_code: 2 }),
      ...later.flatMap(([command, workdir]) => {
        const call = callRows(id, "terminal", workdir ? { command, workdir } : { command }, {
          output: "ok",
          exit_code: 0,
        });
        id += 2;
        return call;
      }),
    ];
    const body = project(rows, { budgetTokens: 4_000 }).body;
    const entry = body.split("\n").find((line) => line.startsWith("- [#2] terminal ")) ?? "";
    assert.equal(entry.includes("→ fixed at"), fixed, `${JSON.stringify(later)}: ${entry}`);
  }
  // A line that names where it runs absolutely is not moved by the calls between.
  const pinned: Row[] = [
    { role: "user", _row_id: 1, content: "Build it." },
    ...callRows(2, "terminal", { command: "make build", workdir: "/srv/app" }, {
      output: "Error 2",
      exit_code: 2,
    }),
    ...callRows(4, "terminal", { command: "cd docs" }, { output: "", exit_code: 0 }),
    ...callRows(6, "terminal", { command: "make build && ls _build", workdir: "/srv/app" }, {
      output: "ok",
      exit_code: 0,
    }),
  ];
  assert.match(project(pinned, { budgetTokens: 4_000 }).body, /→ fixed at \[#7\]$/m);
});
