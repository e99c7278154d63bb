/**
 * A pure function of short texts, remembered: outputs and renderings repeat the same lines (every
 * run of a failing test prints its failure; the budget renders an entry at each width it tries),
 * so each distinct text is worked once while the memo holds it. A text longer than `mostChars` is
 * worked every time; the memo is emptied when it holds `most` texts. It changes how long a call
 * takes, never what it returns.
 *
 * @module
 */

// What the memo holds for a text whose value is `undefined`.
const NOTHING = Symbol("nothing");

/** `work` remembered for texts of at most `mostChars` characters, `most` of them at a time. */
export function textMemo<T>(
  work: (text: string) => T,
  most: number,
  mostChars: number,
): (text: string) => T {
  const known = new Map<string, T | typeof NOTHING>();
  return (text) => {
    if (text.length > mostChars) return work(text);
    const value = known.get(text);
    if (value === NOTHING) return undefined as T;
    if (value !== undefined) return value;
    if (known.size >= most) known.clear();
    const worked = work(text);
    known.set(text, worked === undefined ? NOTHING : worked);
    return worked;
  };
}
