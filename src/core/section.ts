import type { Analysis } from "./analysis.ts";
import { isBefore, type Moment } from "./moment.ts";
import type { RootView } from "./root.ts";

/** The narrowest a section of pinned entries (the task) shows them: their first words at least. */
export const LEAST_PINNED_WIDTH = 60;

/**
 * What one window (or one earlier projection) says about an entry of a section: the entry itself,
 * or, without one, that a previous entry with this key no longer holds (a blocked call that
 * succeeded). An entry that only changes a previous one (a later fix) is not added on its own.
 */
export interface Change<E> {
  /** The entry's identity: the same key in the previous projection names the same fact. */
  readonly key: string;
  readonly entry?: E;
  /** Whether the entry is added when no previous entry has its key. */
  readonly addIfNew: boolean;
  /** When it happened, as far as the rows say. */
  readonly at: Moment;
  /** The key an earlier layer knew this entry by, before it knew what `key` says (its row). */
  readonly formerKey?: string;
}

/**
 * One structured section of the projection, described once: the projector builds and merges it
 * and the previous-summary parser reads it back from this description; the section table gives
 * it its place, its part of the budget and its id.
 */
export interface SectionSpec<E> {
  readonly heading: string;
  /** Headings earlier releases gave it, read back from their projections as this section. */
  readonly formerHeadings?: readonly string[];
  /** Plural noun of its omission note (`commands`, `files`, …). */
  readonly noun: string;
  /** Leading entries that stay while the section stays (the original goal). */
  readonly pinned: number;
  /**
   * Widest its variable text is ever shown; narrower widths are used at small budgets (a section
   * of pinned entries goes as narrow as {@linkcode LEAST_PINNED_WIDTH} to fit its share).
   */
  readonly widths: {
    readonly narrow: number;
    readonly wide: number;
    /**
     * Widest the newest entry {@linkcode SectionSpec.standing} picks is shown (it grows from
     * `narrow` as the others grow to `wide`); the others' `wide` without it.
     */
    readonly newest?: number;
  };
  /** The words its lines write themselves, besides outcome words and what they quote. */
  readonly ownWords: string;
  /** Which entries stay when some must go: the newest (default) or the first. */
  readonly keep?: "newest" | "first";
  /** This window's changes, in the order the section lists them. */
  changes(analysis: Analysis): Change<E>[];
  /** The identity of an entry read back from a previous projection. */
  key(entry: E): string;
  /**
   * Combines an entry of an earlier layer with a later layer's entry of the same key. `older`
   * says the later layer's entry happened before the earlier layer began (a row Hermes stored
   * again): its events go first.
   */
  merge(earlier: E, later: E, older: boolean): E;
  /**
   * The entry's line, its variable text shown in at most `width` characters, paths under the
   * view's root shown from it.
   */
  render(entry: E, width: number, view: RootView): string;
  /**
   * Reads a line this section rendered with `view`; `undefined` when the line is not one of its
   * entries.
   */
  parse(line: string, view: RootView): E | undefined;
  /**
   * Which entries are kept first when some must go (after those matching the focus): a lower
   * rank before a higher one, the newer first within a rank; every entry ranks 0 without it.
   * `standing` says the entry is the newest that tells where the work stands.
   */
  keepRank?(entry: E, standing: boolean): number;
  /**
   * Whether an entry tells where the work stands (a turn's closing reply): the newest such entry
   * is shown as wide as `widths.newest`, and ranked as such by {@linkcode SectionSpec.keepRank}.
   */
  standing?(entry: E): boolean;
  /** Entries shown several to a line, where a section has such (see {@linkcode SharedLines}). */
  readonly shared?: SharedLines<E>;
  /**
   * What a line shows to tell its entry from the others (a command's text), at `width`, in a
   * shared line or alone: no two entries may show the same, so those that would are shown wider.
   */
  shows?(entry: E, width: number, view: RootView): string;
  /**
   * Entries whose lines {@linkcode shows} the same at every width, each as shown apart from the
   * others: its line then shows where it differs from theirs.
   */
  apart?(entries: readonly E[], view: RootView): E[];
}

/**
 * How a section shows some of its entries several to a line (the commands that succeeded once,
 * whose outcome the line states once for all): which entries, each one's part of the line, and
 * how such a line is read back. A shared line takes the place of its first entry.
 */
export interface SharedLines<E> {
  /** Whether an entry is shown in a shared line. */
  test(entry: E): boolean;
  /** How many entries share a line at most. */
  readonly most: number;
  /** What opens a shared line, and what separates its entries. */
  readonly opening: string;
  readonly separator: string;
  /** One entry's part of a shared line. */
  part(entry: E, width: number, view: RootView): string;
  /** The entries of a shared line; `undefined` when `line` is none. */
  parse(line: string, view: RootView): E[] | undefined;
}

/**
 * The omission note that closes a section which dropped entries (the rows they came from are in the
 * session store, as the header says of every row; notes of earlier releases said so again after a
 * `;`, and read back the same).
 */
export function omissionNote(count: number, noun: string): string {
  return `(${count} older ${noun} omitted)`;
}

/** Reads the count back from an {@linkcode omissionNote}; 0 when `line` is not one. */
export function parseOmissionNote(line: string): number {
  const match = /^\((\d{1,9}) older [a-z ]+ omitted/.exec(line);
  return match ? Number(match[1]) : 0;
}

/** Entries of one section, oldest first, with the count of entries already left out. */
export interface SectionContent<E> {
  readonly entries: readonly E[];
  readonly omitted: number;
}

/**
 * Applies a later layer's changes to an earlier layer's entries: an entry with a known key is
 * merged in place (or removed by a retraction), a new one is appended — or put first when it
 * happened before the earlier layer began (`earlierStart`).
 */
export function applyChanges<E>(
  spec: SectionSpec<E>,
  earlier: SectionContent<E>,
  changes: readonly Change<E>[],
  earlierStart: Moment,
): SectionContent<E> {
  const older = (change: Change<E>) => isBefore(change.at, earlierStart);
  const entries = new Map<string, E>();
  for (const entry of earlier.entries) {
    const key = spec.key(entry);
    if (!entries.has(key)) entries.set(key, entry);
  }
  const before = new Map<string, E>();
  const after = new Map<string, E>();
  for (const change of changes) {
    const { formerKey } = change;
    if (formerKey !== undefined && !entries.has(change.key) && entries.has(formerKey)) {
      rekey(entries, formerKey, change.key);
    }
    const known = entries.get(change.key) ?? before.get(change.key) ?? after.get(change.key);
    const target = entries.has(change.key)
      ? entries
      : before.has(change.key)
      ? before
      : after.has(change.key)
      ? after
      : undefined;
    if (known !== undefined && target !== undefined) {
      if (change.entry === undefined) {
        // A retraction that happened before the earlier layer does not undo what came after it.
        if (!older(change)) target.delete(change.key);
      } else {
        target.set(change.key, spec.merge(known, change.entry, older(change)));
      }
    } else if (change.entry !== undefined && change.addIfNew) {
      (older(change) ? before : after).set(change.key, change.entry);
    }
  }
  return {
    entries: [...before.values(), ...entries.values(), ...after.values()],
    omitted: earlier.omitted,
  };
}

/** Gives the entry under key `from` the key `to`, in its place. */
function rekey<E>(entries: Map<string, E>, from: string, to: string): void {
  const all = [...entries];
  entries.clear();
  for (const [key, entry] of all) entries.set(key === from ? to : key, entry);
}
