import { CHARS_PER_TOKEN, type Projection } from "../core/mod.ts";
import { UsageError } from "./_errors.ts";

/**
 * Refuses a projection whose budget cannot hold its header (the body is then empty) with a
 * one-line {@linkcode UsageError} naming the least budget that does, found by projecting the same
 * window with doubled budgets (`bodyAt`) until the header fits.
 */
export function assertHeaderFits(
  projection: Projection,
  bodyAt: (budgetTokens: number) => string,
): void {
  if (projection.body !== "") return;
  const budgetTokens = projection.stats.budgetChars / CHARS_PER_TOKEN;
  let body = "";
  for (let tokens = budgetTokens * 2; body === ""; tokens *= 2) body = bodyAt(tokens);
  const header = body.split("\n\n", 1)[0] ?? "";
  throw new UsageError(
    `a budget of ${budgetTokens} tokens cannot hold the projection's header; the least that ` +
      `does is ${Math.ceil(header.length / CHARS_PER_TOKEN)} tokens`,
  );
}
