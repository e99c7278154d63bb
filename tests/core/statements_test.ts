/**
 * Decisions & Conclusions on generated sessions: each turn's closing reply, the decisions the
 * assistant states with its calls, and the constraints the user states past what Goal shows, all
 * read from the rows the generator wrote (the oracle), kept across a merge, decisions first when
 * the budget forces a choice.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";

type Row = Record<string, unknown>;

interface Story {
  readonly rows: Row[];
  /** Rows of the turns' closing replies, of the decisions, of the users' late constraints. */
  readonly closings: number[];
  readonly decisions: number[];
  readonly constraints: number[];
}

const FILLER =
  "Please look at the service and the scheduler, which have been slow for a while now, " +
  "and tell me what you find in the logs of the last few nights. ";

function story(seed: number, turns: number, firstId: number): Story {
  const random = new SeededRandom(seed);
  const rows: Row[] = [];
  const closings: number[] = [];
  const decisions: number[] = [];
  const constraints: number[] = [];
  let id = firstId;
  for (let turn = 0; turn < turns; turn++) {
    const constrained = random.chance(0.5);
    if (constrained) constraints.push(id);
    rows.push({
      role: "user",
      _row_id: id++,
      content: FILLER +
        (constrained ? `Never touch the ${random.hex(4)} schema while you are at it.` : ""),
    });
    for (let step = random.range(1, 4); step > 0; step--) {
      const decided = random.chance(0.3);
      if (decided) decisions.push(id);
      const note = decided
        ? `Looking closer. Decision D-${random.range(1, 99)}: keep batch ${random.range(2, 500)}.`
        : "Looking closer.";
      const callId = `c${id}`;
      rows.push({
        role: "assistant",
        _row_id: id++,
        content: note,
        tool_calls: [{
          id: callId,
          type: "function",
          function: {
            name: "terminal",
            arguments: JSON.stringify({ command: `ls ${random.hex(6)}` }),
          },
        }],
      });
      rows.push({
        role: "tool",
        _row_id: id++,
        tool_call_id: callId,
        tool_name: "terminal",
        content: JSON.stringify({ output: "a.txt", exit_code: 0 }),
      });
    }
    closings.push(id);
    rows.push({
      role: "assistant",
      _row_id: id++,
      content: `Turn ${turn} done: ${random.hex(8)} is settled and the next step is ticket OPS-${
        random.range(1000, 9999)
      }.`,
    });
  }
  return { rows, closings, decisions, constraints };
}

/**
 * The rows of constraints the Historical Task Snapshot shows (the latest request's, its end
 * shown), which Decisions & Conclusions does not repeat.
 */
function snapshotConstraints(body: string, constraints: readonly number[]): number[] {
  const line = /## Historical Task Snapshot\n(.*)/.exec(body)?.[1] ?? "";
  return constraints.filter((row) =>
    line.startsWith(`[#${row}] `) && /Never touch the [0-9a-f]{4} schema/.test(line)
  );
}

/** The row ids Decisions & Conclusions cites, in order. */
function cited(body: string): number[] {
  const section = /## Decisions & Conclusions\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
  return [...section.matchAll(/^\[#(\d+)\]/gm)].map((match) => Number(match[1]));
}

Deno.test("Decisions & Conclusions lists every closing reply, decision and late constraint", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const told = story(seed, 6, 1);
    const body = project(told.rows, { budgetTokens: 20_000 }).body;
    const ids = new Set([...cited(body), ...snapshotConstraints(body, told.constraints)]);
    for (const row of [...told.closings, ...told.decisions, ...told.constraints]) {
      assert.ok(ids.has(row), `seed ${seed}: [#${row}] listed`);
    }
    // A closing reply quoted there is not repeated in the log.
    const log = body.slice(body.indexOf("## Detailed Session Log"));
    for (const row of told.closings) assert.doesNotMatch(log, new RegExp(`^\\[#${row}\\] `, "m"));
  }
});

Deno.test("Decisions & Conclusions carries its statements across a merge", () => {
  for (const seed of [6, 7, 8]) {
    const first = story(seed, 4, 1);
    const second = story(seed + 100, 2, 1_000);
    const before = project(first.rows, { budgetTokens: 20_000 }).body;
    const after = project(second.rows, { budgetTokens: 20_000, previous: before }).body;
    const ids = new Set(cited(after));
    for (const row of [...first.closings, ...first.decisions, ...second.closings]) {
      assert.ok(ids.has(row), `seed ${seed}: [#${row}] carried`);
    }
  }
});

Deno.test("Decisions & Conclusions keeps decisions first when the budget forces a choice", () => {
  for (const seed of [9, 10, 11]) {
    const told = story(seed, 30, 1);
    const body = project(told.rows, { budgetTokens: 1_500 }).body;
    const ids = cited(body);
    assert.match(body, /\(\d+ older statements omitted/);
    const keptDecisions = ids.filter((id) => told.decisions.includes(id)).length;
    // The newest closing reply, where the work stood, is kept before the decisions.
    const newest = told.closings.at(-1);
    const keptClosings = ids.filter((id) => told.closings.includes(id) && id !== newest).length;
    assert.ok(
      keptDecisions === told.decisions.length || keptClosings === 0,
      `seed ${seed}: a closing reply kept while a decision went`,
    );
  }
});

Deno.test("Decisions & Conclusions keeps the newest closing reply before the assistant's decisions", () => {
  for (const seed of [15, 16, 17, 18]) {
    const random = new SeededRandom(seed);
    const rows: Row[] = [];
    let id = 1;
    const closings: number[] = [];
    const decisions: number[] = [];
    for (let turn = 0; turn < 12; turn++) {
      rows.push({ role: "user", _row_id: id++, content: `Go on with batch ${turn}.` });
      // More decisions, stated with calls, than the section has room for at these budgets.
      for (let step = 0; step < 6; step++) {
        const decision = `Decision D-${turn}-${step}: keep batch ${random.range(2, 500)} in ` +
          `shard ${random.hex(4)} until the ${random.hex(6)} replay has finished.`;
        decisions.push(id);
        rows.push(
          {
            role: "assistant",
            _row_id: id,
            content: decision,
            tool_calls: [{
              id: `c${id}`,
              type: "function",
              function: { name: "terminal", arguments: JSON.stringify({ command: "ls" }) },
            }],
          },
          {
            role: "tool",
            _row_id: id + 1,
            tool_call_id: `c${id}`,
            content: JSON.stringify({ output: "a.py", exit_code: 0 }),
          },
        );
        id += 2;
      }
      closings.push(id);
      rows.push({
        role: "assistant",
        _row_id: id++,
        content: `Turn ${turn} done: ${random.hex(8)} is settled, next is OPS-${
          random.range(1000, 9999)
        }.`,
      });
    }
    for (const budgetTokens of [1_500, 4_000]) {
      const ids = cited(project(rows, { budgetTokens }).body);
      assert.ok(ids.includes(closings.at(-1) as number), `seed ${seed} at ${budgetTokens}`);
      // The older closing replies still go before the decisions.
      const decisionsLeft = decisions.some((row) => !ids.includes(row));
      const olderKept = closings.slice(0, -1).some((row) => ids.includes(row));
      assert.ok(!(decisionsLeft && olderKept), `seed ${seed} at ${budgetTokens}`);
    }
  }
});

Deno.test("Decisions & Conclusions keeps the user's constraints before the assistant's words", () => {
  for (const seed of [12, 13, 14]) {
    const told = story(seed, 30, 1);
    const body = project(told.rows, { budgetTokens: 1_500 }).body;
    const ids = [...cited(body), ...snapshotConstraints(body, told.constraints)];
    const keptConstraints = ids.filter((id) => told.constraints.includes(id)).length;
    const keptOthers = ids.filter((id) => !told.constraints.includes(id)).length;
    assert.ok(keptConstraints > 0, `seed ${seed}: no constraint kept`);
    assert.ok(
      keptConstraints === told.constraints.length || keptOthers === 0,
      `seed ${seed}: a decision or closing reply kept while a constraint went`,
    );
  }
});

/** A reply with calls whose text holds `text`, and its call's result. */
function replyRows(id: number, text: string): Row[] {
  return [
    { role: "user", _row_id: id, content: "Fix the rounding in the report." },
    {
      role: "assistant",
      _row_id: id + 1,
      content: text,
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "terminal", arguments: JSON.stringify({ command: "ls" }) },
      }],
    },
    {
      role: "tool",
      _row_id: id + 2,
      tool_call_id: "c1",
      content: JSON.stringify({ output: "a.py", exit_code: 0 }),
    },
  ];
}

Deno.test("a statement ending in ':' is listed with what it announces, code quoted in a block is no statement", () => {
  const random = new SeededRandom(15);
  for (let trial = 0; trial < 30; trial++) {
    const name = `total_${random.hex(6)}`;
    const fence = random.pick(["```", "```python", "~~~"]);
    const closing = fence.slice(0, 3);
    const text = [
      "Looking at the report code.",
      `${fence}`,
      `# we decided to keep ${random.hex(8)} as it is, instead of rounding`,
      "print(total)",
      closing,
      "So the fix is:",
      `${fence}`,
      `${name} = round(total, 2)`,
      closing,
    ].join("\n");
    const body = project(replyRows(1, text), { budgetTokens: 20_000 }).body;
    const section = /## Decisions & Conclusions\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
    assert.match(section, new RegExp(`^\\[#2\\] assistant: So the fix is: ${name} = round`, "m"));
    assert.doesNotMatch(section, /we decided to keep/);
  }
});

const OPENINGS = [
  "GET /api/orders returns an error item for orders that carry a discount.",
  "The nightly export drops rows whose customer has no region set.",
  "Checkout totals are off by a cent for baskets with more than ten items.",
];
const CONSTRAINTS = [
  "Never touch packages/legacy, the billing team owns it.",
  "Do not change the public API of the exporter.",
  "Keep the retry limit at 7 whatever you find.",
];
const CLOSINGS = [
  "Fix it in packages/api and add tests.",
  "Send me a short summary when it is done, with the failing cases you found.",
  "",
];

Deno.test("a constraint in the middle of a request is quoted whole, in Goal or in Decisions", () => {
  const random = new SeededRandom(29);
  for (let trial = 0; trial < 60; trial++) {
    const constraint = random.pick(CONSTRAINTS);
    const middle = Array.from({ length: random.range(0, 2) }, () => random.pick(OPENINGS));
    const request = [random.pick(OPENINGS), ...middle, constraint, random.pick(CLOSINGS)]
      .join(" ").trim();
    const rows: Row[] = [{ role: "user", content: request, _row_id: 1 }];
    for (let turn = 0; turn < random.range(5, 30); turn++) {
      rows.push({ role: "user", content: `${random.pick(OPENINGS)} (${turn})`, _row_id: 2 + turn });
    }
    for (const budgetTokens of [1_500, 4_000]) {
      const { body } = project(rows, { budgetTokens });
      // Goal and Decisions & Conclusions, not the log, which may or may not reach so far back.
      const sections = body.slice(body.indexOf("## Goal"), body.indexOf("## Detailed Session Log"));
      assert.ok(sections.includes(constraint), `budget ${budgetTokens}: ${request}\n${body}`);
    }
  }
});

Deno.test("the latest request the snapshot quotes whole is not repeated in Decisions or the log", () => {
  for (const seed of [15, 16, 17, 18, 19, 20]) {
    const random = new SeededRandom(seed);
    const told = story(seed, random.range(2, 5), 1);
    const last = Number(told.rows.at(-1)?._row_id) + 1;
    // A short request whose sentence states a constraint, as its turn's last row.
    const request = `Never touch the ${random.hex(4)} schema; keep ${random.hex(6)} as it is.`;
    const rows = [...told.rows, { role: "user", _row_id: last, content: request }];
    const budgetTokens = random.pick([1_500, 4_000, 20_000]);
    const body = project(rows, { budgetTokens }).body;
    assert.match(body, new RegExp(`## Historical Task Snapshot\\n\\[#${last}\\] ${request}\\n`));
    assert.ok(!cited(body).includes(last), `seed ${seed}: Decisions repeats [#${last}]`);
    const log = body.slice(body.indexOf("## Detailed Session Log"));
    assert.doesNotMatch(log, new RegExp(`^\\[#${last}\\] `, "m"), `seed ${seed}`);
    // The earlier requests' constraints are still stated where the budget holds everything.
    if (budgetTokens === 20_000) {
      for (const row of told.constraints) assert.ok(cited(body).includes(row), `seed ${seed}`);
    }
  }
});

Deno.test("a closing reply too long for its line still shows the decision a later sentence states", () => {
  for (let seed = 21; seed <= 40; seed++) {
    const random = new SeededRandom(seed);
    const rows: Row[] = [{ role: "user", _row_id: 1, content: "Find out why the ledger drifts." }];
    const decisions = new Map<number, string>();
    for (let turn = 0; turn < random.range(3, 8); turn++) {
      const id = 2 + turn;
      const decision = `Decision: keep shard ${random.hex(6)} at ${random.range(2, 900)} replicas`;
      decisions.set(id, decision);
      // A finding long enough that its line is cut before the decision, then a last word.
      rows.push({
        role: "assistant",
        _row_id: id,
        content: `${FILLER.repeat(random.range(2, 4))}\n\n${decision}. Then I rerun the suite.`,
      });
    }
    const body = project(rows, { budgetTokens: random.pick([1_500, 4_000]) }).body;
    const section = /## Decisions & Conclusions\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
    const replies = section.split("\n").filter((line) => /^\[#\d+\] assistant:/.test(line));
    assert.ok(replies.length > 0, `seed ${seed}: no reply listed`);
    for (const line of replies) {
      const id = Number(/^\[#(\d+)\]/.exec(line)?.[1]);
      const decision = decisions.get(id) as string;
      // The decision's words up to its count are shown, whatever the line's width.
      assert.ok(line.includes(decision.slice(0, 28)), `seed ${seed}: ${line}`);
    }
  }
});

Deno.test("a decision's sentence runs past the stops of its abbreviations", () => {
  for (
    const [seed, abbreviation] of [[41, "e.g."], [42, "i.e."], [43, "etc."], [44, "vs."]] as const
  ) {
    const random = new SeededRandom(seed);
    const batch = random.range(2, 900);
    const sentence =
      `Decision: keep the ${random.hex(4)} cache, ${abbreviation} for batch ${batch}, ` +
      `and drop the rest.`;
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Tidy the caches." },
      {
        role: "assistant",
        _row_id: 2,
        content: `Looking at the caches. ${sentence} Then I rerun.`,
        tool_calls: [{
          id: "c2",
          type: "function",
          function: { name: "terminal", arguments: JSON.stringify({ command: "ls cache" }) },
        }],
      },
      { role: "tool", _row_id: 3, tool_call_id: "c2", content: '{"output":"a","exit_code":0}' },
    ];
    const body = project(rows, { budgetTokens: 8_000 }).body;
    assert.ok(body.includes(`[#2] assistant: ${sentence}\n`), body);
  }
});

Deno.test("the newest closing reply is shown whole at a large budget, the older ones cut", () => {
  for (let seed = 51; seed <= 62; seed++) {
    const random = new SeededRandom(seed);
    const rows: Row[] = [];
    const replies = new Map<number, string>();
    let id = 1;
    for (let turn = 0; turn < random.range(2, 6); turn++) {
      rows.push({
        role: "user",
        _row_id: id++,
        content: `Step ${turn}: carry on with the ledger.`,
      });
      // Where the turn leaves the work: long, its next step said last.
      const reply = `Turn ${turn} checked ${random.hex(8)}. ${
        FILLER.repeat(random.range(3, 6))
      }Next: replay shard ${random.hex(6)}.`;
      replies.set(id, reply);
      rows.push({ role: "assistant", _row_id: id++, content: reply });
    }
    const body = project(rows, { budgetTokens: 8_000 }).body;
    const section = /## Decisions & Conclusions\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
    const newest = Math.max(...replies.keys());
    for (const [row, reply] of replies) {
      const line = section.split("\n").find((shown) => shown.startsWith(`[#${row}] assistant: `));
      assert.ok(line !== undefined, `seed ${seed}: [#${row}] listed`);
      const next = reply.slice(reply.lastIndexOf("Next: "));
      if (row === newest) assert.ok(line.endsWith(next), `seed ${seed}: ${line}`);
      else assert.ok(!line.includes(next), `seed ${seed}: older reply shown whole`);
    }
  }
});
