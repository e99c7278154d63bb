/**
 * Text of tool results in the shapes Hermes's tools return: terminal JSON, numbered file
 * listings, unified diffs, search JSON, code-execution reports and multimodal dicts.
 *
 * @module
 */
import type { SeededRandom } from "./random.ts";
import { HOSTILE_LINES } from "./_phrases.ts";

/**
 * Lines of filler output, taken from `pool`, about `size` characters long in total. A share
 * `hostile` of them are hostile lines, and now and then one is a long unbroken token (an encoded
 * blob, a hash) with no space to cut at.
 */
export function outputLines(
  random: SeededRandom,
  pool: readonly string[],
  size: number,
  hostile = 0.06,
): string[] {
  const lines: string[] = [];
  let length = 0;
  while (length < size) {
    const roll = random.next();
    const line = roll < hostile
      ? random.pick(HOSTILE_LINES)
      : roll < hostile + 0.01
      ? random.hex(random.range(300, 1200))
      : random.pick(pool);
    lines.push(line);
    length += line.length + 1;
  }
  return lines;
}

/** A size for one tool output: mostly short, sometimes long, never above `max`. */
export function outputSize(random: SeededRandom, max: number): number {
  const roll = random.next();
  const size = roll < 0.5
    ? random.range(40, 400)
    : roll < 0.85
    ? random.range(400, 3000)
    : random.range(3000, 20000);
  return Math.max(0, Math.min(size, max));
}

/** A terminal result: `{"output", "exit_code", "error"}`; an undefined code leaves the key out. */
export function terminalResult(
  output: string,
  exitCode: number | undefined,
  error: string | null = null,
): string {
  return JSON.stringify(
    exitCode === undefined ? { output, error } : { output, exit_code: exitCode, error },
  );
}

/** A file listing as read_file returns it: `N|content` lines from `offset`. */
export function numberedListing(lines: readonly string[], offset: number): string {
  return lines.map((line, index) => `${offset + index}|${line}`).join("\n");
}

/** A unified diff replacing `before` with `after` in `path` at `line`. */
export function unifiedDiff(
  path: string,
  line: number,
  context: readonly string[],
  before: string,
  after: string,
): string {
  const head = context.slice(0, 3).map((text) => ` ${text}`);
  return [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${line},${head.length + 1} +${line},${head.length + 1} @@`,
    ...head,
    `-${before}`,
    `+${after}`,
  ].join("\n");
}

/** A search_files result: JSON with `total_count`, matches and a truncation hint. */
export function searchResult(
  random: SeededRandom,
  pattern: string,
  files: readonly string[],
  codeLines: readonly string[],
  size: number,
): string {
  const matches: { path: string; line: number; content: string }[] = [];
  let length = 0;
  while (length < size && matches.length < 200) {
    const match = { path: random.pick(files), line: random.range(1, 400), content: "" };
    match.content = `${random.pick(codeLines)} # ${pattern}`.trim();
    matches.push(match);
    length += JSON.stringify(match).length;
  }
  const total = matches.length + (random.chance(0.3) ? random.range(1, 80) : 0);
  return JSON.stringify({ total_count: total, matches, truncated: total > matches.length });
}

/** A small base64-looking payload standing in for an image. */
export function fakeImageData(random: SeededRandom): string {
  return `data:image/png;base64,iVBORw0KGgo${random.hex(96)}`;
}

/** Hermes's multimodal tool result: parts plus a text summary. */
export function multimodalResult(random: SeededRandom, summary: string): Record<string, unknown> {
  return {
    _multimodal: true,
    content: [
      { type: "text", text: summary },
      { type: "image_url", image_url: { url: fakeImageData(random) } },
    ],
    text_summary: summary,
  };
}
