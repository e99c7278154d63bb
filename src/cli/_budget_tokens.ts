import { message, text } from "@optique/core";
import { integer, type ValueParser } from "@optique/core/valueparser";
import { BUDGET_TOKENS, BUDGET_TOKENS_RULE } from "../wire/mod.ts";

const rule = message`${text(BUDGET_TOKENS_RULE)}`;

/**
 * The value of a `--budget-tokens N` flag: the range and the message of a request object's
 * `budget_tokens`, whatever is wrong with the value given.
 */
export const budgetTokens: ValueParser<"sync", number> = integer({
  ...BUDGET_TOKENS,
  metavar: "N",
  errors: { invalidInteger: rule, unsafeInteger: rule, belowMinimum: rule, aboveMaximum: rule },
});
