/**
 * The section table describes each section once: what a projection renders from it, the previous-
 * summary parser reads back into the same entries, and every word the projector writes itself is
 * in its vocabulary.
 */
import assert from "node:assert/strict";
import { analyze } from "../../src/core/analysis.ts";
import { describeState, readState } from "../../src/core/outcome_words.ts";
import type { OutcomeKind } from "../../src/core/outcome_words.ts";
import { type RootView, WHOLE_PATHS } from "../../src/core/root.ts";
import { SECTION_DESCRIPTIONS, SECTIONS } from "../../src/core/sections/table.ts";
import { LABEL_WORDS, wordsOf } from "../../src/core/vocabulary.ts";
import { generateWindow } from "../../src/sample/mod.ts";

const WIDE = 10_000;

// Lines show paths whole, or from a root the generated sessions' paths lie under.
const VIEWS: readonly RootView[] = [WHOLE_PATHS, { root: "/home/dev" }];

Deno.test("every section reads back what it rendered: the same entries, the same keys", () => {
  let checked = 0;
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const analysis = analyze(generateWindow({ seed, targetTokens: 20_000, rowIdStart: 1 }));
    const view = VIEWS[seed % VIEWS.length] as RootView;
    for (const section of SECTIONS) {
      section.use((spec) => {
        for (const change of spec.changes(analysis)) {
          if (change.entry === undefined) continue;
          const line = spec.render(change.entry, WIDE, view);
          const read = spec.parse(line, view);
          assert.deepEqual(read, change.entry, `${section.id}: ${line}`);
          assert.equal(spec.key(read!), change.key, `${section.id} key: ${line}`);
          checked++;
        }
      });
    }
  }
  assert.ok(checked > 400, `only ${checked} entries were checked`);
});

Deno.test("a shortened line keeps its entry's key, and renders the same again", () => {
  for (const seed of [11, 12, 13]) {
    const analysis = analyze(generateWindow({ seed, targetTokens: 20_000, rowIdStart: 1 }));
    const view = VIEWS[seed % VIEWS.length] as RootView;
    for (const section of SECTIONS) {
      section.use((spec) => {
        for (const change of spec.changes(analysis)) {
          if (change.entry === undefined) continue;
          const line = spec.render(change.entry, spec.widths.narrow, view);
          const read = spec.parse(line, view);
          assert.ok(read !== undefined, `${section.id}: ${line}`);
          assert.equal(spec.key(read), change.key, `${section.id}: ${line}`);
          assert.equal(spec.render(read, spec.widths.narrow, view), line);
        }
      });
    }
  }
});

const KINDS: readonly OutcomeKind[] = [
  "succeeded",
  "failed",
  "answer",
  "unfinished",
  "relayed",
  "no-exit",
  "ok",
  "error",
  "blocked",
  "pending",
  "timeout",
  "interrupted",
  "background",
  "running",
  "unknown",
  "missing",
];

Deno.test("outcome words read back as the state they describe, and are all vocabulary", () => {
  for (const kind of KINDS) {
    for (const exit of [undefined, 0, 1, -1, 137]) {
      const state = {
        kind,
        ...(exit === undefined ? {} : { exitCode: exit }),
        ...(kind === "answer" ? { meaning: "no match" as const, exitCode: 1 } : {}),
        ...(kind === "unfinished" ? { meaning: "checks pending" as const, exitCode: 8 } : {}),
        ...(kind === "relayed" ? { exitOf: "tail" } : {}),
      };
      const words = describeState(state);
      const read = readState(`${words} [#5]`);
      assert.equal(read?.length, words.length, words);
      assert.equal(describeState(read!.state), words);
      for (const word of wordsOf(words).filter((w) => !/^-?\d+$/.test(w))) {
        assert.ok(LABEL_WORDS.has(word), `"${word}" of "${words}" is not a label word`);
      }
    }
  }
  assert.ok(
    wordsOf(describeState({ kind: "succeeded", exitCode: 0, printedError: true }))
      .every((word) => /^\d+$/.test(word) || LABEL_WORDS.has(word)),
  );
});

Deno.test("the section table's shares partition the budget and its ranks order every section", () => {
  const shares = SECTION_DESCRIPTIONS.map((section) => section.share);
  assert.ok(shares.every((share) => share > 0 && share < 1), `shares: ${shares}`);
  assert.ok(Math.abs(shares.reduce((sum, share) => sum + share, 0) - 1) < 1e-9, `${shares}`);
  const ranks = SECTION_DESCRIPTIONS.map((section) => section.rank).toSorted((a, b) => a - b);
  assert.deepEqual(ranks, SECTION_DESCRIPTIONS.map((_, index) => index));
});
