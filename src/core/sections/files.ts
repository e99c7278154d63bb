import { type Analysis, eventMoment } from "../analysis.ts";
import { eventRow } from "../events.ts";
import type { Moment } from "../moment.ts";
import { cut } from "../excerpt.ts";
import { FILE_OPERATION_WORDS, fileOps } from "../file_ops.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef, sameRow } from "../ref.ts";
import { readRoot, showRoot } from "../root.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Change, SectionSpec } from "../section.ts";

/** How often one operation was done to a path, and the row that did it first. */
export interface OpTally {
  /** `read`, `written`, `modified (patched)`, …, with ` (failed)` for failed attempts. */
  readonly op: string;
  readonly count: number;
  readonly ref?: Ref;
}

/** A path with every operation done to it. */
export interface FileEntry {
  readonly path: string;
  readonly ops: readonly OpTally[];
}

// Paths are shown whole (they are their own keys), up to this length.
const PATH_CHARS = 300;
const OP = new RegExp(`^([a-z][a-z ()]*?)(?: ×(\\d{1,9}))?(?: (${REF_PATTERN}))?$`);
const SEPARATOR = " — ";

/**
 * Relevant Files: one entry per path, first-seen order, with each operation, how often it happened
 * and the first row that did it: `- src/app.py — read ×2 [#12]; modified (patched) [#15]`.
 */
export const FILES: SectionSpec<FileEntry> = {
  heading: "## Relevant Files",
  noun: "files",
  pinned: 0,
  widths: { narrow: PATH_CHARS, wide: PATH_CHARS },
  ownWords: FILE_OPERATION_WORDS,
  changes(analysis: Analysis): Change<FileEntry>[] {
    const paths = new Map<string, { ops: Map<string, OpTally>; at: Moment }>();
    for (const event of analysis.events) {
      for (const { path, op, inResult } of fileOps(event)) {
        const shown = cut(sanitizeInline(path), PATH_CHARS);
        if (shown === "") continue;
        const file = paths.get(shown) ??
          { ops: new Map<string, OpTally>(), at: eventMoment(event) };
        paths.set(shown, file);
        const tally = file.ops.get(op);
        file.ops.set(
          op,
          tally ? { ...tally, count: tally.count + 1 } : {
            op,
            count: 1,
            ref: (inResult ? event.resultRow ?? eventRow(event) : eventRow(event)).ref,
          },
        );
      }
    }
    return [...paths].map(([path, { ops, at }]) => ({
      key: path,
      entry: { path, ops: [...ops.values()] },
      addIfNew: true,
      at,
    }));
  },
  key: (entry) => entry.path,
  merge(earlier, later, older) {
    const ops = new Map<string, OpTally>();
    for (const tally of older ? [...later.ops, ...earlier.ops] : [...earlier.ops, ...later.ops]) {
      const known = ops.get(tally.op);
      if (!known) ops.set(tally.op, tally);
      else if (!(known.ref && tally.ref && sameRow(known.ref, tally.ref))) {
        ops.set(tally.op, { ...known, count: known.count + tally.count });
      }
    }
    return { path: earlier.path, ops: [...ops.values()] };
  },
  render(entry, _width, view) {
    const ops = entry.ops.map((tally) => {
      const count = tally.count > 1 ? ` ×${tally.count}` : "";
      return `${tally.op}${count}${tally.ref ? ` ${renderRef(tally.ref)}` : ""}`;
    });
    return `- ${showRoot(entry.path, view)}${SEPARATOR}${ops.join("; ")}`;
  },
  parse(line, view) {
    if (!line.startsWith("- ")) return undefined;
    // A path may hold " — " itself; the operations after the last one never do.
    const split = line.lastIndexOf(SEPARATOR);
    if (split <= 2) return undefined;
    const ops: OpTally[] = [];
    for (const part of line.slice(split + SEPARATOR.length).split("; ")) {
      const match = OP.exec(part);
      if (!match) return undefined;
      const ref = match[3] === undefined ? undefined : parsePreviousRef(match[3]);
      ops.push({ op: match[1] as string, count: Number(match[2] ?? 1), ...(ref ? { ref } : {}) });
    }
    return { path: readRoot(sanitizeInline(line.slice(2, split)), view), ops };
  },
};
