import assert from "node:assert/strict";
import { ledgerStory } from "../../src/bench/replay/ledger/story.ts";
import type { CallContext } from "../../src/bench/replay/story/action.ts";
import type { FactSource } from "../../src/bench/replay/story/fact.ts";
import { callId, placedSteps, type Story } from "../../src/bench/replay/story/story.ts";

const SEEDS = [1, 2, 3, 4, 5];

/** A request that offers Hermes 0.22's surface: `process` and `todo` only through `tool_call`. */
const deferring: CallContext = {
  offers: (tool) => !["process", "todo", "process_manage", "todo_list"].includes(tool),
  resultOf: () => undefined,
  projectDir: "/project",
};

/** Every text the scripted model sends, with the source it is, as a fact would name it. */
function storyTexts(story: Story): { source: FactSource; text: string }[] {
  const texts: { source: FactSource; text: string }[] = [];
  story.turns.forEach((turn, index) => {
    texts.push({ source: { kind: "user", turn: index }, text: turn.prompt });
    // The last closing ends the session: no request ever carries it.
    if (index < story.turns.length - 1) {
      texts.push({ source: { kind: "closing", turn: index }, text: turn.closing });
    }
  });
  for (const step of placedSteps(story)) {
    texts.push({ source: { kind: "note", step: step.index }, text: step.note });
    const call = step.action.call(deferring);
    texts.push({
      source: { kind: "call", step: step.index },
      text: JSON.stringify(call.arguments),
    });
  }
  return texts;
}

const sameSource = (a: FactSource, b: FactSource) => JSON.stringify(a) === JSON.stringify(b);

Deno.test("ledgerStory() tells the same story, byte for byte, for the same seed", () => {
  for (const seed of SEEDS) {
    const a = ledgerStory(seed), b = ledgerStory(seed);
    assert.equal(JSON.stringify(storyTexts(a)), JSON.stringify(storyTexts(b)));
    assert.deepEqual(a.files, b.files);
    assert.deepEqual(a.facts, b.facts);
  }
  assert.notDeepEqual(ledgerStory(1).files, ledgerStory(2).files);
});

Deno.test("ledgerStory() says each probe only where its fact was planted", () => {
  for (const seed of SEEDS) {
    const story = ledgerStory(seed);
    const texts = storyTexts(story);
    const files = [...Object.values(story.files), ...Object.values(story.skills)];
    for (const fact of story.facts) {
      for (const probe of fact.probes) {
        const elsewhere = texts.filter(({ source, text }) =>
          text.includes(probe) && !fact.sources.some((own) => sameSource(own, source))
        );
        assert.deepEqual(elsewhere.map((t) => t.source), [], `seed ${seed} ${fact.id}: ${probe}`);
        const inFiles = files.filter((text) => text.includes(probe)).length;
        assert.ok(inFiles <= 1, `seed ${seed} ${fact.id}: ${probe} is in ${inFiles} files`);
        const planted = fact.sources[0]!;
        if (planted.kind !== "result") {
          const own = texts.find(({ source }) => sameSource(source, planted));
          assert.ok(own?.text.includes(probe), `seed ${seed} ${fact.id}: ${probe} is not planted`);
        }
      }
    }
  }
});

Deno.test("ledgerStory() plants facts of every probe category, in user, assistant and tool rows", () => {
  const story = ledgerStory(1);
  const categories = new Set(story.facts.map((fact) => fact.category));
  assert.deepEqual([...categories].sort(), ["artifact", "continuation", "decision", "recall"]);
  const kinds = new Set(story.facts.map((fact) => fact.sources[0]!.kind));
  for (const kind of ["user", "note", "result", "closing", "call"]) {
    assert.ok(kinds.has(kind as never), kind);
  }
});

Deno.test("ledgerStory() sizes its outputs around Hermes's 64K-window spill size", () => {
  const spill = 64_000 * 4 * 0.15; // tools/budget_config.py: 15% of the window, in characters
  for (const seed of SEEDS) {
    const story = ledgerStory(seed);
    const log = Object.entries(story.files).find(([path]) => path.startsWith("var/log/sync-"))!;
    const bytes = new TextEncoder().encode(log[1]).length;
    assert.ok(bytes > 40 * 1024, `the night's log is ${bytes} bytes`);
    assert.ok(JSON.stringify(log[1]).length < spill - 200, "the log's result would be spilled");
    const metrics = story.files["var/metrics/all.prom"]!;
    assert.ok(JSON.stringify(metrics).length > spill, "the metrics' result would not be spilled");
    for (const page of [1, 2]) {
      const runs = story.files[`var/ci/runs-page-${page}.json`]!;
      assert.ok(JSON.stringify(runs).length < spill - 200, `CI page ${page} would be spilled`);
      assert.ok(runs.split("\n").length > 200, `CI page ${page} lists hundreds of runs`);
    }
    assert.ok(
      Object.values(story.skills)[0]!.length > 5_000,
      "the skill is too short to be marked",
    );
  }
});

Deno.test("ledgerStory() reaches deferred tools through tool_call where Hermes defers them", () => {
  const story = ledgerStory(1);
  const calls = placedSteps(story).map((step) => ({
    kind: step.action.kind,
    call: step.action.call(deferring),
  }));
  for (const { kind, call } of calls) {
    if (kind.startsWith("process.") || kind === "todo") assert.equal(call.name, "tool_call", kind);
  }
  const direct: CallContext = { ...deferring, offers: () => true };
  const wait = placedSteps(story).find((step) => step.action.kind === "process.wait")!;
  assert.equal(wait.action.call(direct).name, "process");
  assert.equal(callId(7), "call_007");
});
