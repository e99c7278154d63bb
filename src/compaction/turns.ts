import { contentText, SCAFFOLDING_TURN_PREFIXES } from "../core/mod.ts";
import type { MessageRow } from "./cut.ts";
import type { HermesRules } from "./hermes_rules.ts";
import { isSummaryRow } from "./summary_rows.ts";

// The display kind of a user row that is still the user's words (a /steer message).
const STEER_DISPLAY_KIND = "steer";

/**
 * Whether `row` is a turn the user wrote, which Hermes keeps in the tail: a user row that is no
 * compaction summary and, on 0.22, neither blank, nor shown as a notice (`display_kind`), nor one
 * of the notes Hermes adds itself.
 */
export function isUserTurn(row: MessageRow, rules: HermesRules): boolean {
  if (row.role !== "user" || isSummaryRow(row)) return false;
  if (!rules.skipsScaffoldingTurns) return true;
  if (typeof row.display_kind === "string" && row.display_kind !== STEER_DISPLAY_KIND) {
    return false;
  }
  const text = contentText(row.content).trim();
  if (text === "" && !hasNonTextPart(row.content)) return false;
  return !SCAFFOLDING_TURN_PREFIXES.some((prefix) => text.startsWith(prefix));
}

/**
 * The index of the newest assistant reply at or after `from` that shows text, else of the newest
 * assistant row of any kind (0.22 passes over summaries), or -1.
 */
export function lastAssistantReply(
  rows: readonly MessageRow[],
  from: number,
  rules: HermesRules,
): number {
  let any = -1;
  for (let i = rows.length - 1; i >= from; i--) {
    const row = rows[i]!;
    if (row.role !== "assistant" || (rules.skipsScaffoldingTurns && isSummaryRow(row))) continue;
    if (any < 0) any = i;
    if (showsText(row.content)) return i;
  }
  return any;
}

/** Whether `content` is text only (a string, or parts that are all text). */
export function isTextOnly(content: unknown): boolean {
  if (typeof content === "string") return true;
  return Array.isArray(content) &&
    content.every((part) =>
      typeof part === "string" ||
      (typeof part === "object" && part !== null &&
        ["text", "input_text"].includes(String((part as { type?: unknown }).type)) &&
        typeof (part as { text?: unknown }).text === "string")
    );
}

function showsText(content: unknown): boolean {
  if (typeof content === "string") return content.trim() !== "";
  if (!Array.isArray(content)) return false;
  return content.some((part) => {
    if (part === null || typeof part !== "object") return false;
    const record = part as Record<string, unknown>;
    const text = record.text || record.content;
    return typeof text === "string" && text.trim() !== "";
  });
}

function hasNonTextPart(content: unknown): boolean {
  return Array.isArray(content) &&
    content.some((part) =>
      typeof part === "object" && part !== null &&
      !["text", "input_text"].includes(String((part as { type?: unknown }).type))
    );
}
