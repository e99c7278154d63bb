import { type Analysis, refOf } from "../analysis.ts";
import { eventRow } from "../events.ts";
import { cut } from "../excerpt.ts";
import { fileOps } from "../file_ops.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Entry } from "../section.ts";

const PATH_CHARS = 300;

interface OpTally {
  readonly op: string;
  readonly ref: string;
  count: number;
}

/**
 * One entry per path, first-seen order: each operation with how often it happened and the first
 * row that did it, e.g. `- src/app.py — read ×2 [#12]; modified (patched) [#15]`.
 */
export function fileEntries(analysis: Analysis): Entry[] {
  const paths = new Map<string, Map<string, OpTally>>();
  for (const event of analysis.events) {
    for (const { path, op } of fileOps(event)) {
      const display = cut(sanitizeInline(path), PATH_CHARS);
      if (display === "") continue;
      const ops = paths.get(display) ?? new Map<string, OpTally>();
      paths.set(display, ops);
      const tally = ops.get(op);
      if (tally) tally.count++;
      else ops.set(op, { op, ref: refOf(eventRow(event)), count: 1 });
    }
  }
  return [...paths].map(([path, ops]) => {
    const tallies = [...ops.values()];
    return {
      key: path,
      line: `- ${path} — ${tallies.map(renderOp).join("; ")}`,
      update: (previous: string) => {
        const added = tallies.filter((tally) => !mentionsOp(previous, tally.op));
        return added.length === 0 ? previous : `${previous}; ${added.map(renderOp).join("; ")}`;
      },
    };
  });
}

function renderOp(tally: OpTally): string {
  return `${tally.op}${tally.count > 1 ? ` ×${tally.count}` : ""} ${tally.ref}`;
}

function mentionsOp(line: string, op: string): boolean {
  const ops = line.slice(line.indexOf(" — ") + 3);
  return ops.split("; ").some((part) =>
    part === op || part.startsWith(`${op} [`) || part.startsWith(`${op} ×`)
  );
}
