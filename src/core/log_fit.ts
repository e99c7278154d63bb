import type { Focus } from "./focus.ts";
import type { LazyLines } from "./lazy_lines.ts";
import { omissionNote } from "./section.ts";
import { LOG_SECTION } from "./sections/table.ts";

const LOG_NOUN = LOG_SECTION.noun;
// The room kept for the omission note when lines must go: the longest note there may be.
const NOTE_ROOM = omissionNote(999_999, LOG_NOUN).length + 1;

/**
 * Picks the log lines that fit in `limit` characters from `log` (earlier projections' lines and
 * this window's, in order, rendered lazily). Lines matching the focus are taken first, then the
 * newest run of lines that fits; returned oldest first, with room kept for the omission note.
 * `dropped` counts the messages (and earlier log lines) that have lines but none kept, counted up
 * to `mostDropped`.
 */
export function fitLog(
  log: LazyLines,
  limit: number,
  focus: Focus,
  mostDropped = Infinity,
): { kept: string[]; dropped: number } {
  if (!focus.active) {
    // Whether every line fits is all this asks.
    const whole = log.newest(limit, 0);
    if (whole.complete) return { kept: whole.lines, dropped: 0 };
    const kept = log.newest(limit - NOTE_ROOM, mostDropped);
    return { kept: kept.lines, dropped: kept.dropped };
  }
  const lines = log.all();
  const all = lines.reduce((sum, line) => sum + line.length + 1, 0);
  if (all <= limit) return { kept: lines, dropped: 0 };
  const room = limit - omissionNote(lines.length, LOG_NOUN).length - 1;
  const chosen = new Set<number>();
  let used = 0;
  const take = (test: (line: string) => boolean, contiguous: boolean) => {
    for (let index = lines.length - 1; index >= 0; index--) {
      const line = lines[index] as string;
      if (chosen.has(index) || !test(line)) continue;
      if (used + line.length + 1 > room) {
        if (contiguous) return;
        continue;
      }
      chosen.add(index);
      used += line.length + 1;
    }
  };
  take((line) => focus.matches(line), false);
  take(() => true, true);
  const kept = lines.filter((_, index) => chosen.has(index));
  let dropped = 0;
  let line = 0;
  for (let group = 0; group < log.groups; group++) {
    const end = line + log.at(group).length;
    // A group without lines had none to drop.
    let shown = end === line;
    for (; line < end; line++) shown ||= chosen.has(line);
    if (!shown) dropped++;
  }
  return { kept, dropped };
}

/**
 * The least room in which {@linkcode fitLog} keeps the lines it keeps in `limit`: their characters
 * and, when some must go, the room it keeps for the omission note; 0 when no line fits (a log of
 * only its note says nothing).
 */
export function fittedLogSize(log: LazyLines, limit: number, focus: Focus): number {
  // Whether any message is dropped is all the size asks.
  const { kept, dropped } = fitLog(log, limit, focus, 1);
  if (kept.length === 0) return 0;
  const lines = kept.reduce((sum, line) => sum + line.length + 1, 0);
  return dropped > 0 ? lines + NOTE_ROOM : lines;
}
