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
 * folded, or cut with `…` where the kept head and tail are the start and end of `full`.
 */
export function showsText(shown: string, full: string): boolean {
  const display = foldText(shown);
  const whole = foldText(full);
  if (display === whole) return true;
  for (let at = display.indexOf(CUT); at >= 0; at = display.indexOf(CUT, at + 1)) {
    const head = display.slice(0, at).trimEnd();
    const tail = display.slice(at + CUT.length).trimStart();
    if (head.length + tail.length === 0 || head.length + tail.length > whole.length) continue;
    if (whole.startsWith(head) && whole.endsWith(tail)) return true;
  }
  return false;
}
