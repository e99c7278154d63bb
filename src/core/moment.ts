import type { Row } from "./message.ts";

/**
 * When something happened, as far as the rows tell: the time Hermes recorded (epoch seconds) and
 * the stored row id. Row ids grow with time, except for rows Hermes stores again after a
 * compaction, which keep their original time; so times decide when both sides have one.
 */
export interface Moment {
  readonly time?: number;
  readonly row?: number;
}

/** The moment of a row (nothing known for a row without one). */
export function momentOf(row: Row | undefined): Moment {
  const moment: { time?: number; row?: number } = {};
  if (row?.time !== undefined) moment.time = row.time;
  if (row?.ref.kind === "row") moment.row = row.ref.id;
  return moment;
}

/** Whether `a` happened before `b`: by time when both have one, else by row id; else not known. */
export function isBefore(a: Moment, b: Moment): boolean {
  if (a.time !== undefined && b.time !== undefined) return a.time < b.time;
  if (a.row !== undefined && b.row !== undefined) return a.row < b.row;
  return false;
}

/** The earliest time and the lowest row id among `moments`, each where known. */
export function earliestMoment(moments: readonly Moment[]): Moment {
  const times = moments.flatMap((moment) => (moment.time === undefined ? [] : [moment.time]));
  const rows = moments.flatMap((moment) => (moment.row === undefined ? [] : [moment.row]));
  return {
    ...(times.length === 0 ? {} : { time: Math.min(...times) }),
    ...(rows.length === 0 ? {} : { row: Math.min(...rows) }),
  };
}
