/**
 * Small formatting helpers for the inspection commands: times, aligned tables, and text made
 * safe to print on a terminal.
 *
 * @module
 */

/** Epoch seconds as `2026-08-03 07:24:13Z`, or `-` when unknown. */
export function formatTime(epochSeconds: number | null): string {
  if (epochSeconds === null || !Number.isFinite(epochSeconds)) return "-";
  const iso = new Date(epochSeconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}

/** Rows of cells as left-aligned columns separated by two spaces; the last column is not padded. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index]!)))
        .join("  ")
    )
    .join("\n") + "\n";
}

// Escape sequences, C0/C1 controls other than tab and newline, bidi and zero-width controls.
const UNPRINTABLE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Text as it can be shown on a terminal without acting on it: control, bidi and zero-width
 * characters appear as visible `\u{…}` escapes instead of moving the cursor or reordering text.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}
