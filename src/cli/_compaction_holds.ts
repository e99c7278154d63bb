import type { CompactionHold } from "../store/mod.ts";
import { formatTime, printable } from "./_display.ts";

/** A hold as one line: what is held back, until when, and why. */
export function describeHold(hold: CompactionHold): string {
  const why = printable(hold.why);
  if (hold.blocks === null) return `note: ${why}`;
  const until = hold.until === null
    ? ` (${hold.ends ?? "no fixed end"})`
    : ` until ${formatTime(hold.until)}${hold.active ? "" : " (over)"}`;
  return `${hold.blocks} held back${until}: ${why}`;
}

/** The binding hold in a few words, for a table cell: `blocked until …`, or `-`. */
export function holdCell(holds: readonly CompactionHold[]): string {
  const binding = holds.find((hold) => hold.active && hold.blocks !== null);
  if (!binding) return holds.length > 0 ? "note" : "-";
  const what = binding.blocks === "automatic compaction" ? "blocked" : "summary step benched";
  return binding.until === null ? what : `${what} until ${formatTime(binding.until)}`;
}
