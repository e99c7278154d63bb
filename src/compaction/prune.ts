import type { MessageRow } from "./cut.ts";
import { IMAGE_PART_TYPES } from "./hermes_tokens.ts";
import { jsonObject } from "./json_object.ts";
import { DUPLICATE_PLACEHOLDER } from "../core/mod.ts";
import { isPruningStub, pruningStub } from "./stubs.ts";
import { type PricedRows, walkTail } from "./tail_cut.ts";

/** Hermes stubs tool results longer than this many characters. */
export const MIN_PRUNE_CHARS = 200;

// What Hermes puts in place of a screenshot it drops from a tool result.
const SCREENSHOT_REMOVED = "[screenshot removed to save context]";
// 0.22 keeps the images of this many newest tool results that carry any.
const KEEP_TOOL_IMAGES = 3;

/**
 * Hermes's first compaction phase on a whole transcript (`_prune_old_tool_results`, passes 1
 * to 3), which the cut is then computed on. The protected tail is the newest rows within
 * `budget` tokens, at least `protectLastN` of them (0.22 counts at most 8), and on 0.22 the tool
 * results the transcript ends with (not read yet). See {@linkcode pruneToolResults} for what
 * changes; screenshots in tool results before the tail become a placeholder too, and on 0.22 in
 * every tool result but the newest three that carry any; on 0.19, tool-call arguments over 500
 * characters before the tail have their long strings cut. Returns new rows; the input is not
 * changed.
 */
export function pruneTranscript(
  priced: PricedRows,
  budget: number,
  protectLastN: number,
): MessageRow[] {
  const { rows, rules } = priced;
  const floor = Math.min(protectLastN, rows.length, rules.pruneFloorCap);
  const [walked] = walkTail(priced, 0, budget, floor, true);
  let boundary = Math.min(walked, rows.length - floor);
  let pending = rows.length;
  while (pending > 0 && rows[pending - 1]?.role === "tool") pending--;
  if (rules.sparesPendingRound) boundary = Math.min(boundary, pending);
  const pruned = stubToolResults(rows, boundary);
  if (rules.shrinksCallArguments) {
    for (let i = 0; i < boundary; i++) pruned[i] = withShrunkArguments(pruned[i]!);
  }
  let withImages = 0;
  for (let i = pruned.length - 1; i >= 0; i--) {
    const row = pruned[i]!;
    if (row.role !== "tool") continue;
    const images = hasImages(row.content);
    if (images) withImages++;
    const retired = images && rules.sparesPendingRound && withImages > KEEP_TOOL_IMAGES &&
      i < pending;
    if (retired || (i < boundary && (images || isMultimodal(row.content)))) {
      pruned[i] = { ...row, content: withoutImages(row.content) };
    }
  }
  return pruned;
}

/**
 * Hermes's pruning of the tool results in `window`, with `later` (the protected tail) taken into
 * account but not changed: a text result of 200 characters or more that a later one repeats
 * becomes the duplicate marker, and every other text result over 200 characters becomes its
 * tool's one-line stub.
 */
export function pruneToolResults(
  window: readonly MessageRow[],
  later: readonly MessageRow[] = [],
): MessageRow[] {
  return stubToolResults([...window, ...later], window.length).slice(0, window.length);
}

/** Duplicates marked everywhere, other long results before `boundary` stubbed. */
function stubToolResults(rows: readonly MessageRow[], boundary: number): MessageRow[] {
  const calls = toolCalls(rows);
  const pruned = rows.map((row) => ({ ...row }));
  const later = new Set<string>();
  for (let i = pruned.length - 1; i >= 0; i--) {
    const row = pruned[i]!;
    const content = row.content;
    if (row.role !== "tool" || typeof content !== "string" || length(content) < MIN_PRUNE_CHARS) {
      continue;
    }
    if (later.has(content)) row.content = DUPLICATE_PLACEHOLDER;
    later.add(content);
  }
  for (let i = 0; i < boundary; i++) {
    const row = pruned[i]!;
    const content = row.content;
    if (row.role !== "tool" || typeof content !== "string") continue;
    if (length(content) <= MIN_PRUNE_CHARS || content === DUPLICATE_PLACEHOLDER) continue;
    if (isPruningStub(content)) continue;
    const call = calls.get(String(row.tool_call_id));
    row.content = pruningStub(call?.name ?? "unknown", call?.args ?? {}, content);
  }
  return pruned;
}

// 0.19 cuts the strings of call arguments longer than this to ARGUMENT_STRING_CHARS.
const LONG_ARGUMENTS = 500;
const ARGUMENT_STRING_CHARS = 200;

/** An assistant row whose long call arguments are shrunk as 0.19 shrinks them. */
function withShrunkArguments(row: MessageRow): MessageRow {
  if (row.role !== "assistant" || !Array.isArray(row.tool_calls)) return row;
  let changed = false;
  const calls = row.tool_calls.map((call: unknown) => {
    const fn = (call as { function?: { arguments?: unknown } } | null)?.function;
    const args = fn?.arguments;
    if (typeof args !== "string" || length(args) <= LONG_ARGUMENTS) return call;
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      return call;
    }
    const shrunk = pythonJson(shrinkStrings(parsed));
    if (shrunk === args) return call;
    changed = true;
    return { ...(call as object), function: { ...fn, arguments: shrunk } };
  });
  return changed ? { ...row, tool_calls: calls } : row;
}

function shrinkStrings(value: unknown): unknown {
  if (typeof value === "string") {
    const chars = [...value];
    return chars.length > ARGUMENT_STRING_CHARS
      ? `${chars.slice(0, ARGUMENT_STRING_CHARS).join("")}...[truncated]`
      : value;
  }
  if (Array.isArray(value)) return value.map(shrinkStrings);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, shrinkStrings(item)]),
    );
  }
  return value;
}

/** JSON as Python's `json.dumps(value, ensure_ascii=False)` writes it: `", "` and `": "` between items. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${
      Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`)
        .join(", ")
    }}`;
  }
  return JSON.stringify(value);
}

function isMultimodal(
  content: unknown,
): content is { _multimodal: true } & Record<string, unknown> {
  return typeof content === "object" && content !== null && !Array.isArray(content) &&
    Boolean((content as { _multimodal?: unknown })._multimodal);
}

function imageParts(content: unknown): unknown {
  return isMultimodal(content) ? content.content : content;
}

function isImagePart(part: unknown): boolean {
  return typeof part === "object" && part !== null &&
    IMAGE_PART_TYPES.has((part as { type?: unknown }).type);
}

function hasImages(content: unknown): boolean {
  const parts = imageParts(content);
  return Array.isArray(parts) && parts.some(isImagePart);
}

/** A tool result's content with its screenshots replaced, as Hermes replaces them. */
function withoutImages(content: unknown): unknown {
  if (isMultimodal(content)) {
    const summary = content.text_summary ? String(content.text_summary) : SCREENSHOT_REMOVED;
    return `[screenshot removed] ${[...summary].slice(0, 200).join("")}`;
  }
  return (content as unknown[]).map((part) =>
    isImagePart(part) ? { type: "text", text: SCREENSHOT_REMOVED } : part
  );
}

function toolCalls(
  rows: readonly MessageRow[],
): Map<string, { name: string; args: Record<string, unknown> }> {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  for (const row of rows) {
    if (row.role !== "assistant" || !Array.isArray(row.tool_calls)) continue;
    for (const call of row.tool_calls as unknown[]) {
      const id = (call as { id?: unknown })?.id;
      const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function;
      if (typeof id !== "string") continue;
      calls.set(id, {
        name: typeof fn?.name === "string" ? fn.name : "unknown",
        args: jsonObject(fn?.arguments),
      });
    }
  }
  return calls;
}

function length(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
