/**
 * The projection budget: the cases in tests/shared/projection_budget.json, which the plugin's tests
 * read too, so vcc's budget (preview, bench) and the plugin's (inside Hermes) follow one rule.
 */
import assert from "node:assert/strict";
import { hermesTokens, projectionBudget } from "../../src/compaction/mod.ts";

interface BudgetCase {
  readonly what: string;
  readonly context_tokens: number;
  readonly content_chars: number;
  readonly window_tokens: number;
  readonly settings: {
    readonly budget_ratio?: number;
    readonly min_budget_tokens?: number;
    readonly max_budget_tokens?: number;
  };
  readonly budget_tokens: number;
}

const { cases }: { cases: BudgetCase[] } = JSON.parse(
  await Deno.readTextFile(new URL("../shared/projection_budget.json", import.meta.url)),
);

Deno.test("projectionBudget() gives the budget of every shared case", async (t) => {
  for (const c of cases) {
    await t.step(c.what, () => {
      const window = [{ role: "user", content: "x".repeat(c.content_chars) }];
      assert.equal(hermesTokens(window), c.window_tokens, "Hermes's count of the window");
      const settings = {
        ...(c.settings.budget_ratio === undefined ? {} : { budgetRatio: c.settings.budget_ratio }),
        ...(c.settings.min_budget_tokens === undefined
          ? {}
          : { minBudgetTokens: c.settings.min_budget_tokens }),
        ...(c.settings.max_budget_tokens === undefined
          ? {}
          : { maxBudgetTokens: c.settings.max_budget_tokens }),
      };
      assert.equal(projectionBudget(c.context_tokens, c.window_tokens, settings), c.budget_tokens);
    });
  }
});
