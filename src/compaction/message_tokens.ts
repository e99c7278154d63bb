import type { MessageRow } from "./cut.ts";
import { IMAGE_PART_TYPES, pythonTextLength } from "./hermes_tokens.ts";
import type { HermesRules } from "./hermes_rules.ts";

// Hermes charges this much per message for its role and keys.
const MESSAGE_OVERHEAD_TOKENS = 10;

/**
 * What one message costs in Hermes's tail walks (`_estimate_msg_budget_tokens`): its content
 * (the `api_content` Hermes sends instead, when a user or assistant row has one), 10 tokens of
 * overhead, each tool call as Python prints it, and its reasoning text (0.19: on every row; 0.22:
 * on the newest assistant row only). Structured reasoning details and provider replay items are
 * not charged.
 */
export function messageTokens(
  row: MessageRow,
  rules: HermesRules,
  chargeReasoning: boolean,
): number {
  const sidecar = row.api_content;
  const content = typeof sidecar === "string" && sidecar !== "" &&
      (row.role === "user" || row.role === "assistant")
    ? sidecar
    : row.content ?? "";
  let tokens = MESSAGE_OVERHEAD_TOKENS +
    (typeof content === "string"
      ? rules.textTokens(content)
      : Math.trunc(partsLength(content, rules) / 4));
  if (Array.isArray(row.tool_calls)) {
    for (const call of row.tool_calls) {
      if (call !== null && typeof call === "object" && !Array.isArray(call)) {
        tokens += rules.lengthTokens(pythonTextLength(call));
      }
    }
  }
  if (chargeReasoning) tokens += reasoningTokens(row, rules);
  return tokens;
}

function reasoningTokens(row: MessageRow, rules: HermesRules): number {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const content = text(row.reasoning_content);
  // 0.22 sends one of the two: reasoning_content when it has text.
  const reasoning = rules.chargesAllReasoning || content.trim() === "" ? text(row.reasoning) : "";
  return Math.trunc(content.length / 4) + Math.trunc(reasoning.length / 4);
}

/** Characters Hermes counts for non-text content: text parts by length, images at a flat price. */
function partsLength(content: unknown, rules: HermesRules): number {
  if (!Array.isArray(content)) return content ? pythonTextLength(content) : 0;
  return content.reduce((sum: number, part: unknown) => {
    if (part === null || typeof part !== "object") return sum + String(part).length;
    const record = part as Record<string, unknown>;
    if (IMAGE_PART_TYPES.has(record.type)) return sum + rules.imageTokens * 4;
    return sum + (typeof record.text === "string" ? record.text.length : 0);
  }, 0);
}
