// Controls, format and other invisible characters, which a projection never shows.
const INVISIBLE =
  /[[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]--[\t\n\v\f\r]]/gv;
// The characters a projection writes in place of quoted markers and references, mapped back.
const SHOWN_AS: ReadonlyArray<readonly [RegExp, string]> = [
  [/‹/g, "<"],
  [/›/g, ">"],
  [/⟦/g, "["],
  [/⟧/g, "]"],
  [/\((#\d+|t\d+)\)/g, "[$1]"],
];
const CUT = "…";
const LEAST_SHOWN = 4;

/**
 * Text as the recall bench compares it: invisible characters dropped, whitespace runs folded to
 * one space and trimmed, and the projection's stand-ins for markers and references mapped back.
 */
export function foldText(text: string): string {
  let folded = text.replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  for (const [pattern, replacement] of SHOWN_AS) folded = folded.replace(pattern, replacement);
  return folded;
}

/**
 * Whether `shown` (a command or path as a projection line shows it) stands for `full`: equal once
 * folded, or with parts left out at each `…`, the parts kept being the start of `full` (or
 * nothing), its end (or nothing) and pieces of it in between, in order, four characters at least.
 */
export function showsText(shown: string, full: string): boolean {
  const display = foldText(shown);
  const whole = foldText(full);
  if (display === whole) return true;
  if (!display.includes(CUT)) return false;
  const pieces = display.split(CUT).map((piece) => piece.trim());
  const first = pieces[0] as string;
  const last = pieces.at(-1) as string;
  // Something must be shown: a start, an end, or pieces enough to name the command.
  const kept = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (kept < LEAST_SHOWN || !whole.startsWith(first) || !whole.endsWith(last)) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = whole.indexOf(piece, at);
    if (found === -1) return false;
    at = found + piece.length;
  }
  return at <= whole.length - last.length;
}
