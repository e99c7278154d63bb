import { cut } from "./excerpt.ts";
import type { Focus } from "./focus.ts";
import { LazyLines } from "./lazy_lines.ts";
import { capLines, omissionNote } from "./section.ts";

/** A section ready to render: heading, lines, and how many entries it left out. */
export interface Draft {
  readonly heading: string;
  /** Plural noun for the omission note (`files`, `commands`, …). */
  readonly noun: string;
  lines: string[];
  omitted: number;
  /** Lines that are never dropped while the section stays (the original goal). */
  readonly pinned: number;
  /** Lines kept before others when entries must go (after those matching the focus). */
  readonly prefer?: (line: string) => boolean;
}

/** Characters a draft takes in the body, including the blank line that separates sections. */
export function draftSize(draft: Draft): number {
  return renderDraft(draft).length + 2;
}

/** The Markdown of one section; empty when it has nothing to say. */
export function renderDraft(draft: Draft): string {
  if (draft.lines.length === 0 && draft.omitted === 0) return "";
  const note = draft.omitted > 0 ? [omissionNote(draft.omitted, draft.noun)] : [];
  return [draft.heading, ...draft.lines, ...note].join("\n");
}

function totalSize(drafts: readonly Draft[]): number {
  return drafts.reduce((sum, draft) => sum + draftSize(draft), 0);
}

/**
 * Shrinks `drafts` until they take at most `limit` characters. Sections give up entries in the
 * order given by `expendable` (oldest first, focus matches last), then long lines are shortened,
 * then whole sections go. The drafts are changed in place.
 */
export function shrinkDrafts(
  drafts: readonly Draft[],
  expendable: readonly Draft[],
  limit: number,
  focus: Focus,
): void {
  while (totalSize(drafts) > limit) {
    const victim = expendable.find((draft) => draft.lines.length > Math.max(1, draft.pinned));
    if (!victim) break;
    const pinned = victim.lines.slice(0, victim.pinned);
    const rest = victim.lines.slice(victim.pinned);
    const floor = victim.pinned > 0 ? 0 : 1;
    const keep = Math.max(floor, Math.min(Math.floor(rest.length * 3 / 4), rest.length - 1));
    const { kept, dropped } = capLines(rest, keep, focus, victim.prefer);
    victim.lines = [...pinned, ...kept];
    victim.omitted += dropped;
  }
  for (const width of [240, 120]) {
    if (totalSize(drafts) <= limit) return;
    for (const draft of drafts) draft.lines = draft.lines.map((line) => cut(line, width));
  }
  for (const draft of [...expendable, ...drafts]) {
    if (totalSize(drafts) <= limit) return;
    draft.omitted += draft.lines.length;
    draft.lines = [];
    if (totalSize(drafts) > limit) draft.omitted = 0;
  }
}

/** What the session log's omission note counts: messages (and earlier log lines) left out. */
export const LOG_NOUN = "log entries";

/**
 * Picks the log lines that fit in `limit` characters: the previous projection's lines, then this
 * window's (rendered lazily). Lines matching the focus are taken first, then the newest run of
 * lines that fits; returned oldest first, with room kept for the omission note. `dropped` counts
 * the messages (and previous log lines) of which no line was kept.
 */
export function fitLog(
  previous: readonly string[],
  current: LazyLines,
  limit: number,
  focus: Focus,
): { kept: string[]; dropped: number } {
  const log = new LazyLines(
    previous.length + current.groups,
    (index) =>
      index < previous.length ? [previous[index] as string] : current.at(index - previous.length),
  );
  if (!focus.active) {
    const whole = log.newest(limit);
    if (whole.complete) return { kept: whole.lines, dropped: 0 };
    const kept = log.newest(limit - omissionNote(999_999, LOG_NOUN).length - 1);
    return { kept: kept.lines, dropped: log.groups - kept.groups };
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
    let shown = false;
    for (; line < end; line++) shown ||= chosen.has(line);
    if (!shown) dropped++;
  }
  return { kept, dropped };
}
