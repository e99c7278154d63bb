/**
 * A runner's report that a step it ran failed (pnpm's `ELIFECYCLE`, make's `*** […] Error 2`,
 * cargo's `could not compile`) says less than the step's own report printed before it: a failed
 * command's line quotes the step's report, and so does the line of one that exited 0 (piped to
 * `tee`) but printed it. Outputs are generated from hand-written reports and runners' lines; the
 * oracle is the step's report as written here.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";
import { callRows, type Row } from "../support/call_rows.ts";

// A step's own report of what failed, as the program printed it.
const OWN_REPORTS = [
  "src/pages/Orders.tsx(54,9): error TS2741: Property 'variant' is missing in type '{ label: string; }'",
  "error[E0425]: cannot find value `total` in this scope",
  "src/taps.c:23:1: error: expected ';' before '}' token",
  "E   KeyError: 'sku'",
  "Error: Cannot find module './config'",
];
// What runners print after a step failed, by the command line that runs them.
const RUNNERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["pnpm build", [
    "apps/admin build: Failed",
    "/home/dev/acme-web/apps/admin:",
    " ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @acme/admin@2.11.0 build: `tsc --noEmit`",
    "Exit status 2",
    " ELIFECYCLE  Command failed with exit code 2.",
  ]],
  ["npm run build", [
    "npm ERR! code ELIFECYCLE",
    "npm ERR! errno 2",
    "npm ERR! admin@1.0.0 build: `tsc`",
    "npm ERR! Exit status 2",
  ]],
  ["yarn build", ["error Command failed with exit code 2."]],
  ["make all", [
    "make[1]: *** [Makefile:31: build/taps.o] Error 1",
    "make: *** [Makefile:12: all] Error 2",
  ]],
  ["cargo build", ["error: could not compile `ledger` (lib) due to 1 previous error"]],
  ["just build", ["error: Recipe `build` failed on line 4 with exit code 1"]],
];
const FILLER = ["   Compiling ledger v0.9.3", "> admin@1.0.0 build", "collected 12 items", "done"];

/** Rows: the request, then `command` run with `output`, exiting `exitCode`. */
function run(command: string, output: string, exitCode: number): Row[] {
  return [
    { role: "user", content: "Build it.", _row_id: 1 },
    ...callRows(2, "terminal", { command }, { output, exit_code: exitCode, error: null }),
  ];
}

/** What Errors & Fixes quotes of the command run at row 2, after its outcome. */
function quoted(body: string): string {
  const section = body.slice(body.indexOf("## Errors & Fixes"));
  const line = section.split("\n").find((text) => /^- \[#2\] terminal /.test(text)) ?? "";
  const at = line.indexOf("[#3]: ");
  return at === -1 ? "" : line.slice(at + "[#3]: ".length);
}

Deno.test("a failed command's line quotes the step's own report, not the runner's that it failed", () => {
  const random = new SeededRandom(9);
  for (let round = 0; round < 60; round++) {
    const [command, relays] = random.pick(RUNNERS);
    const own = random.pick(OWN_REPORTS);
    const lines = [
      ...FILLER.slice(0, random.int(FILLER.length)),
      own,
      ...relays.slice(0, random.range(1, relays.length)),
    ];
    const failed = project(run(command, lines.join("\n"), 2), { budgetTokens: 4000 }).body;
    const shownOwn = own.replace(/^E {3}/, "");
    assert.ok(quoted(failed).includes(shownOwn), `${command}: ${quoted(failed)}`);
    for (const relay of relays) {
      assert.ok(!quoted(failed).includes(relay.trim()), `${command} quotes ${relay}`);
    }
    const piped = project(run(`${command} | tee build.log`, lines.join("\n"), 0), {
      budgetTokens: 4000,
    }).body;
    assert.match(piped, /^- \[#2\] terminal .* but printed an error \[#3\]: /m, piped);
    assert.equal(quoted(piped), shownOwn, piped);
  }
});

Deno.test("a runner's report is quoted when the output holds no report of the step's own", () => {
  for (const [command, relays] of RUNNERS) {
    const output = [...FILLER, ...relays].join("\n");
    const body = project(run(command, output, 2), { budgetTokens: 4000 }).body;
    const last = (relays.at(-1) as string).trim();
    assert.ok(quoted(body).includes(last.replace(/\s+/g, " ")), `${command}: ${quoted(body)}`);
  }
});

// Names that tell the steps' reports apart (numbers are masked in an error's fingerprint).
const NAMES = [
  "total",
  "label",
  "variant",
  "children",
  "onClick",
  "disabled",
  "title",
  "items",
  "price",
  "owner",
  "status",
  "region",
  "currency",
  "locale",
];

Deno.test("Errors Seen drops runners' reports that a step failed before the steps' own reports", () => {
  const random = new SeededRandom(4);
  for (let round = 0; round < 12; round++) {
    const rows: Row[] = [{ role: "user", content: "Fix the build.", _row_id: 1 }];
    const owns: string[] = [];
    for (let index = 0; index < NAMES.length; index++) {
      const [command, relays] = random.pick(RUNNERS);
      const name = NAMES[index] as string;
      const own = `src/${name}.ts(3,9): error TS2339: Property '${name}' does not exist`;
      owns.push(own);
      rows.push(
        ...callRows(2 + 2 * index, "terminal", { command: `${command} -w ${index}` }, {
          output: [own, ...relays].join("\n"),
          exit_code: 2,
        }),
      );
    }
    const { body, stats } = project(rows, { budgetTokens: random.range(500, 900) });
    const section = /## Errors Seen\n([\s\S]*?)(?:\n\n|$)/.exec(body)?.[1] ?? "";
    const shown = section.split("\n").filter((line) => line.startsWith("- "));
    const ownShown = shown.filter((line) => owns.some((own) => line.includes(own))).length;
    assert.ok(stats.sections.errorsSeen.omitted > 0, `some must go:\n${section}`);
    assert.equal(ownShown, Math.min(owns.length, shown.length), section);
  }
});

// Test runners' tallies, each with how many tests failed in it.
const TALLIES: ReadonlyArray<(failed: number, passed: number) => string> = [
  (failed, passed) => `===== ${failed} failed, ${passed} passed in 3.12s =====`,
  (failed, passed) => `${failed + passed} examples, ${failed} failure${failed === 1 ? "" : "s"}`,
  (failed, passed) => `Tests:       ${failed} failed, ${passed} passed, ${failed + passed} total`,
  (failed, passed) =>
    `test result: ${failed > 0 ? "FAILED" : "ok"}. ${passed} passed; ${failed} failed; 0 ignored`,
];

Deno.test("a test run whose status a pipe hides says it printed an error when its tally counts failures", () => {
  const random = new SeededRandom(31);
  for (let trial = 0; trial < 60; trial++) {
    const failed = random.chance(0.5) ? 0 : random.range(1, 9);
    const tally = random.pick(TALLIES)(failed, random.range(1, 300));
    const command = `${random.pick(["bin/rspec", "pytest -q", "npx jest", "cargo test"])} 2>&1 | ${
      random.pick(["tail -n 4", "tail -3", "head -50"])
    }`;
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the suite." },
      ...callRows(2, "terminal", { command }, {
        output: `Finished in 0.5 seconds\n${tally}`,
        exit_code: 0,
      }),
    ];
    const body = project(rows, { budgetTokens: 4_000 }).body;
    const line = body.split("\n").find((shown) => shown.startsWith("- [#2] `")) ?? "";
    assert.match(line, /ran \(exit 0 of (?:tail|head)\)/, body);
    assert.equal(line.includes("but printed an error"), failed > 0, `${tally}: ${line}`);
    // The failure is quoted where errors are looked for.
    const fixes = body.slice(body.indexOf("## Errors & Fixes"));
    assert.equal(
      body.includes("## Errors & Fixes") &&
        fixes.includes(tally.replace(/^=+ | =+$/g, "").replace(/\s+/g, " ")),
      failed > 0,
      body,
    );
  }
});
