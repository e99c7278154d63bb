import type { MessageRow } from "./cut.ts";
import { jsonObject } from "./json_object.ts";
import { DUPLICATE_STUB, isPruningStub, pruningStub } from "./stubs.ts";

/** Hermes leaves tool results of this many characters or fewer alone. */
export const MIN_PRUNE_CHARS = 200;

/**
 * What Hermes's first compaction phase does to the window before the summary step
 * (hermes-internals §3.3, passes 1 and 2): a text tool result that a later row (in the window or
 * in `later`, the protected tail) repeats becomes the duplicate marker, and every other text
 * result over 200 characters becomes its tool's one-line stub. Returns new rows; the input is
 * not changed. Argument truncation and image retirement are not reproduced.
 */
export function pruneToolResults(
  window: readonly MessageRow[],
  later: readonly MessageRow[] = [],
): MessageRow[] {
  const seenLater = new Set<string>();
  for (const row of later) {
    if (row.role === "tool" && typeof row.content === "string") seenLater.add(row.content);
  }
  const callArgs = new Map<string, Record<string, unknown>>();
  for (const row of window) {
    if (!Array.isArray(row.tool_calls)) continue;
    for (const call of row.tool_calls as unknown[]) {
      const id = (call as { id?: unknown })?.id;
      const args = (call as { function?: { arguments?: unknown } })?.function?.arguments;
      if (typeof id === "string") callArgs.set(id, jsonObject(args));
    }
  }
  const pruned = window.map((row) => ({ ...row }));
  for (let i = pruned.length - 1; i >= 0; i--) {
    const row = pruned[i]!;
    const content = row.content;
    if (row.role !== "tool" || typeof content !== "string") continue;
    if (content.length <= MIN_PRUNE_CHARS || isPruningStub(content)) continue;
    if (seenLater.has(content)) {
      row.content = DUPLICATE_STUB;
      continue;
    }
    seenLater.add(content);
    const tool = typeof row.tool_name === "string" ? row.tool_name : "tool";
    row.content = pruningStub(tool, callArgs.get(String(row.tool_call_id)) ?? {}, content);
  }
  return pruned;
}
