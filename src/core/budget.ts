/**
 * How the budget is spent, as the section table divides it: each section, the session log among
 * them, fills its share of the room after the header with the entries it keeps first; room a
 * section leaves unused goes to the others by rank. Lines are shown narrower at small budgets.
 *
 * @module
 */
import type { Focus } from "./focus.ts";
import type { RootView } from "./root.ts";
import {
  LEAST_PINNED_WIDTH,
  omissionNote,
  type SectionContent,
  type SectionSpec,
  type SharedLines,
} from "./section.ts";
import { type BudgetPart, LOG_SECTION } from "./sections/table.ts";

/** Budgets at or below this many characters show the narrowest lines; at or above `WIDE`, the widest. */
const NARROW_BUDGET = 8_000;
const WIDE_BUDGET = 32_000;
/** The least room worth promising the session log: a few lines. */
const MIN_LOG_CHARS = 200;
// Room the log cannot use goes back to the sections when, with the room none took, it could hold
// a line of theirs (sizing them again costs about what they took).
const LEAST_GIVEN_BACK = 60;

/** One section ready to be sized: its spec, its part of the budget and its merged entries. */
export interface SectionPlan<E> {
  readonly spec: SectionSpec<E>;
  readonly part: BudgetPart;
  readonly content: SectionContent<E>;
}

/** What the budget gives one section: the entries shown (oldest first), rendered, and the count left out. */
export interface SizedSection {
  readonly heading: string;
  readonly lines: readonly string[];
  /** Entries left out: the previous projection's omissions plus those dropped here. */
  readonly omitted: number;
  /** The entries shown, oldest first. */
  readonly kept: readonly unknown[];
  /** Characters it takes in the body, the blank line after it included. */
  readonly size: number;
}

/** A section being sized: its candidate lines in the order they are kept, and what it took. */
interface Sizing {
  readonly heading: string;
  readonly noun: string;
  readonly entries: readonly unknown[];
  /** Each entry's line, or its part of a shared line (rendered when first asked for). */
  line(index: number): string;
  /** Which entries share lines (see `SharedLines`), and how. */
  readonly shared: readonly boolean[];
  /** Each entry's own line: what a shared entry shows when it is the only one. */
  alone(index: number): string;
  readonly sharing?: Pick<SharedLines<unknown>, "most" | "opening" | "separator">;
  /** Indices into `entries`, in the order entries are kept. */
  readonly order: readonly number[];
  readonly pinned: number;
  readonly rank: number;
  readonly previouslyOmitted: number;
  readonly share: number;
  used: number;
  /** The entries taken so far, the first of the keep order, and what their lines add up to. */
  taken: Taken;
}

/**
 * The lines of a section's first entries in keep order, summed: the characters of their lines and
 * line breaks, how many are parts of shared lines, and the last of those (the one shown alone when
 * it is the only one).
 */
interface Taken {
  readonly count: number;
  readonly chars: number;
  readonly parts: number;
  readonly lastPart: number;
}

const NONE_TAKEN: Taken = { count: 0, chars: 0, parts: 0, lastPart: 0 };

/** What the session log asks of the budget. */
export interface LogNeeds {
  /**
   * How much of `limit` characters it would take, before the sections are sized (its lines as if
   * every call were listed, which no listing makes longer), never more than `limit`.
   */
  wants(limit: number): number;
  /**
   * How much of `room` it takes beside the sections as sized: what it will show. The sections
   * {@linkcode sizeSections} returns are the last it was shown (the same array).
   */
  shows(sections: readonly SizedSection[], room: number): number;
}

/** What the session log takes: as many characters as it wants, up to what it is given. */
interface LogSizing {
  readonly rank: number;
  readonly share: number;
  readonly needs: LogNeeds;
  readonly pinned: 0;
  used: number;
}

/**
 * Chooses, for every section, the entries the body shows within the budget, and renders them;
 * `logNeeds` tells how much of a given room the session log would fill, and the result says how
 * much room is left for it.
 * First the pinned entries (the task), then each part up to its share by rank (the log at least a
 * few lines), then what is left over by rank, the task's sections last (their
 * lines were already fitted to their shares); whatever remains goes to the log.
 */
export function sizeSections(
  plans: readonly SectionPlan<unknown>[],
  budgetChars: number,
  headerSize: number,
  logNeeds: LogNeeds,
  focus: Focus,
  view: RootView,
): { sections: SizedSection[]; logRoom: number } {
  const room = Math.max(0, budgetChars - headerSize);
  const sizings = plans.map((plan) =>
    prepare(plan, budgetChars, plan.part.share * room, focus, view)
  );
  const log: LogSizing = {
    rank: LOG_SECTION.rank,
    share: LOG_SECTION.share * room,
    needs: logNeeds,
    pinned: 0,
    used: 0,
  };
  const takeLog = (limit: number) => {
    const taken = Math.max(0, Math.min(limit, log.needs.wants(log.used + limit) - log.used));
    log.used += taken;
    return taken;
  };
  let free = room;
  const parts = [...sizings, log].sort((a, b) => a.rank - b.rank);
  for (const sizing of sizings.toSorted((a, b) => a.rank - b.rank)) {
    free -= take(sizing, free, sizing.pinned);
  }
  for (const part of parts) {
    if (part === log) free -= takeLog(Math.min(free, Math.max(log.share, MIN_LOG_CHARS)));
    else free -= take(part as Sizing, Math.min(free, part.share));
  }
  const leftoverOrder = [
    ...parts.filter((p) => p.pinned === 0 && p !== log),
    ...parts.filter((p) => p.pinned > 0),
  ] as Sizing[];
  for (const part of leftoverOrder) free -= take(part, free);
  free -= takeLog(free);
  // Beside the sections as sized the log may show less than it was offered (a call no section
  // lists has a longer line): that room goes back to the sections, in the same order.
  let sections = sizings.map(finish);
  const shown = log.needs.shows(sections, log.used);
  if (log.used > shown && free + log.used - shown >= LEAST_GIVEN_BACK) {
    free += log.used - shown;
    log.used = shown;
    for (const part of leftoverOrder) free -= take(part, free);
    sections = sizings.map(finish);
    log.needs.shows(sections, log.used);
  }
  const used = sections.reduce((sum, section) => sum + section.size, 0);
  return { sections, logRoom: room - used };
}

function prepare(
  plan: SectionPlan<unknown>,
  budgetChars: number,
  share: number,
  focus: Focus,
  view: RootView,
): Sizing {
  const { spec, content } = plan;
  const width = widthFor(spec, budgetChars, share, content.entries.length);
  const { widths, entries } = distinctShowing(spec, content.entries, width, view);
  const standing = spec.standing === undefined ? -1 : entries.findLastIndex(spec.standing);
  const newest = spec.widths.newest;
  if (standing !== -1 && newest !== undefined) {
    widths[standing] = Math.max(
      widths[standing] as number,
      widthAt(spec.widths.narrow, newest, budgetChars),
    );
  }
  const sharing = spec.shared;
  const shared = entries.map((entry) => sharing?.test(entry) ?? false);
  // Lines are rendered when sizing or showing asks for them: most entries of a long section are
  // never shown.
  const alones: string[] = [];
  const parts: string[] = [];
  const alone = (index: number) =>
    alones[index] ??= spec.render(entries[index], widths[index] as number, view);
  const line = (index: number) =>
    parts[index] ??= shared[index]
      ? sharing!.part(entries[index], widths[index] as number, view)
      : alone(index);
  const pinned = Math.min(spec.pinned, entries.length);
  const rest = entries.map((_, index) => index).slice(pinned);
  const recent = spec.keep === "first" ? rest : [...rest].reverse();
  const order: number[] = entries.map((_, index) => index).slice(0, pinned);
  const focused = (index: number) => focus.active && focus.matches(line(index));
  order.push(...recent.filter(focused));
  const ranks = entries.map((entry, index) => spec.keepRank?.(entry, index === standing) ?? 0);
  // Within a rank the order of `recent` holds (the sort is stable).
  order.push(
    ...recent.filter((index) => !focused(index))
      .sort((a, b) => (ranks[a] as number) - (ranks[b] as number)),
  );
  return {
    heading: spec.heading,
    noun: spec.noun,
    entries,
    line,
    shared,
    alone,
    ...(sharing === undefined ? {} : { sharing }),
    order,
    pinned,
    rank: plan.part.rank,
    previouslyOmitted: content.omitted,
    share,
    used: 0,
    taken: NONE_TAKEN,
  };
}

/** Widths, as multiples of a section's, tried in turn for entries that would show the same. */
const DISTINCT_STEPS = [1.25, 1.5, 2, 3, 5, 10];

/**
 * The width each entry is shown at: the section's, wider for entries that would show the same as
 * another (see `SectionSpec.shows`), in steps, until none does or the steps run out; entries that
 * still would are shown apart (`SectionSpec.apart`).
 */
function distinctShowing<E>(
  spec: SectionSpec<E>,
  entries: readonly E[],
  width: number,
  view: RootView,
): { widths: number[]; entries: readonly E[] } {
  const widths = entries.map(() => width);
  const shows = spec.shows;
  if (shows === undefined) return { widths, entries };
  // What each entry shows at its width; only a widened entry's is shown again.
  const showing = entries.map((entry) => shows(entry, width, view));
  const sameShowing = () => {
    const owners = new Map<string, number[]>();
    showing.forEach((shown, index) => {
      const indices = owners.get(shown);
      if (indices) indices.push(index);
      else owners.set(shown, [index]);
    });
    return [...owners.values()].filter((indices) => indices.length > 1);
  };
  for (const step of DISTINCT_STEPS) {
    const same = sameShowing().flat();
    if (same.length === 0) return { widths, entries };
    for (const index of same) {
      widths[index] = Math.round(width * step);
      showing[index] = shows(entries[index] as E, widths[index], view);
    }
  }
  const apart = spec.apart;
  const groups = sameShowing();
  if (apart === undefined || groups.length === 0) return { widths, entries };
  const shown = [...entries];
  for (const group of groups) {
    const apartShown = apart(group.map((index) => entries[index] as E), view);
    group.forEach((index, at) => shown[index] = apartShown[at] as E);
  }
  return { widths, entries: shown };
}

/**
 * The width a section's lines are shown at: its narrowest at small budgets, its widest at large
 * ones, in three steps (a section nothing new touched keeps its bytes while the budget stays in
 * one step); a section of few long entries (the snapshot, the goal) fits them to its share.
 */
function widthFor(
  spec: SectionSpec<unknown>,
  budgetChars: number,
  share: number,
  count: number,
): number {
  const width = widthAt(spec.widths.narrow, spec.widths.wide, budgetChars);
  if (spec.pinned === 0 || count === 0) return width;
  // The pinned entry (the task) always fits its share, however small, rather than being lost.
  const fitted = Math.floor((share - spec.heading.length - 8) / Math.min(count, 4)) - 8;
  return Math.max(LEAST_PINNED_WIDTH, Math.min(width, fitted));
}

/** A width from `narrow` at small budgets to `wide` at large ones, in three steps. */
function widthAt(narrow: number, wide: number, budgetChars: number): number {
  const step = budgetChars <= NARROW_BUDGET ? 0 : budgetChars < WIDE_BUDGET ? 0.5 : 1;
  return Math.round(narrow + (wide - narrow) * step);
}

/**
 * Takes entries in keep order, at most `most` of them in all, while they fit in `room` (a section
 * with no entries left but earlier omissions takes its heading and note); returns the characters
 * added.
 */
function take(sizing: Sizing, room: number, most = Infinity): number {
  const before = sizing.used;
  if (sizing.used === 0 && sizing.order.length === 0 && sizing.previouslyOmitted > 0) {
    const size = sizeWith(sizing, NONE_TAKEN);
    if (size <= room) sizing.used = size;
  }
  while (sizing.taken.count < Math.min(sizing.order.length, most)) {
    const taken = withNext(sizing, sizing.taken);
    const next = sizeWith(sizing, taken);
    if (next - before > room) break;
    sizing.taken = taken;
    sizing.used = next;
  }
  return sizing.used - before;
}

/** `taken` with the next entry of the keep order added. */
function withNext(sizing: Sizing, taken: Taken): Taken {
  const entry = sizing.order[taken.count] as number;
  const shared = sizing.shared[entry] as boolean;
  return {
    count: taken.count + 1,
    chars: taken.chars + sizing.line(entry).length + (shared ? 0 : 1),
    parts: taken.parts + (shared ? 1 : 0),
    lastPart: shared ? entry : taken.lastPart,
  };
}

/**
 * The size of the section showing the `taken` entries: their lines, and the shared lines their
 * shared parts make (which depends only on how many there are).
 */
function sizeWith(sizing: Sizing, taken: Taken): number {
  const { count, parts, lastPart } = taken;
  let size = sizing.heading.length + 2 + taken.chars;
  if (parts === 1) {
    size += sizing.alone(lastPart).length - sizing.line(lastPart).length + 1;
  } else if (parts > 1 && sizing.sharing) {
    const lines = Math.ceil(parts / sizing.sharing.most);
    size += lines * (sizing.sharing.opening.length + 1) +
      (parts - lines) * sizing.sharing.separator.length;
  }
  const omitted = sizing.previouslyOmitted + sizing.entries.length - count;
  if (omitted > 0) size += omissionNote(omitted, sizing.noun).length + 1;
  return size;
}

function finish(sizing: Sizing): SizedSection {
  const kept = new Set(sizing.order.slice(0, sizing.taken.count));
  const omitted = sizing.previouslyOmitted + sizing.entries.length - kept.size;
  if (sizing.used === 0) return { heading: sizing.heading, lines: [], omitted, kept: [], size: 0 };
  const shown = [...kept].sort((a, b) => a - b);
  // Shared parts in the order shown, a line for each run of `most`, at its first entry's place;
  // a lone one shows its own line.
  const sharedParts = shown.filter((index) => sizing.shared[index]);
  const opens = new Map<number, string>();
  const { most = 1, opening = "", separator = "" } = sizing.sharing ?? {};
  if (sharedParts.length === 1) {
    const only = sharedParts[0] as number;
    opens.set(only, sizing.alone(only));
  }
  for (let start = 0; sharedParts.length > 1 && start < sharedParts.length; start += most) {
    const run = sharedParts.slice(start, start + most);
    opens.set(run[0] as number, opening + run.map((index) => sizing.line(index)).join(separator));
  }
  const lines = shown.flatMap((index) =>
    sizing.shared[index]
      ? (opens.has(index) ? [opens.get(index) as string] : [])
      : [sizing.line(index)]
  );
  if (omitted > 0) lines.push(omissionNote(omitted, sizing.noun));
  const entries = shown.map((index) => sizing.entries[index]);
  return { heading: sizing.heading, lines, omitted, kept: entries, size: sizing.used };
}
