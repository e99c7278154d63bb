/** Reports how far a long run is; the CLI prints it on standard error. */
export type Progress = (done: number, total: number) => void;

/** A {@linkcode Progress} that stays silent. */
export const noProgress: Progress = (_done: number, _total: number): void => {};

/**
 * A {@linkcode Progress} that calls `write` with `label: done/total` at every tenth of the way
 * and at the end, so long runs show they are alive without flooding the terminal.
 */
export function steppedProgress(label: string, write: (line: string) => void): Progress {
  let shown = -1;
  return (done, total) => {
    const step = total === 0 ? 10 : Math.floor((done / total) * 10);
    if (step === shown && done !== total) return;
    shown = step;
    write(`${label}: ${done}/${total}`);
  };
}
