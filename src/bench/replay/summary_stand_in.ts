/**
 * The deterministic stand-in the bench answers Hermes's summary requests with, in place of a
 * summary model. Hermes builds the prompt (serializing the turns, redacting them), and after the
 * answer runs its own grounding, redaction and appended sections; only the model is replaced.
 *
 * The rule: every record of the prompt (each serialized turn, `[USER]: …`, `[ASSISTANT]: …`,
 * `[TOOL RESULT id]: …`, and on an iterative update every line of the previous summary's log)
 * becomes one line, its whitespace folded, cut to its first N characters, under
 * `## Detailed Session Log (oldest first)`, oldest first. N is the largest length at which the
 * answer fits the "Target ~T tokens" the prompt states (T × 4 characters); below
 * {@linkcode MIN_LINE_CHARS} the oldest lines are left out instead. It keeps the start of every
 * turn the prompt shows (requests, what the assistant said, the stubs of pruned results), which
 * is what an extractive summary of that prompt can keep, and never invents anything.
 *
 * @module
 */

/** The heading the stand-in writes under; an iterative update reads its lines back from it. */
export const STAND_IN_HEADING = "## Detailed Session Log (oldest first)";
/** No line is cut shorter than this; lines are dropped, oldest first, instead. */
export const MIN_LINE_CHARS = 80;

const TARGET = /Target ~(\d+) tokens/;
const RECORD_START = /\n\n(?=\[(?:USER|ASSISTANT|SYSTEM|TOOL RESULT[^\]\n]*)\]: )/;
const TURN_BLOCKS: readonly [string, readonly string[]][] = [
  ["TURNS TO SUMMARIZE:\n", ["\n\nUse this exact structure:"]],
  ["NEW TURNS TO INCORPORATE:\n", ["\n\nUpdate the summary using this exact structure."]],
];
const MEMORY_BLOCK = "\n\n<memory-provider-context";
const PREVIOUS_START = "PREVIOUS SUMMARY:\n";
const PREVIOUS_END = "\n\nNEW TURNS TO INCORPORATE:";

/** The stand-in's answer to a summary prompt, or why the prompt could not be read. */
export type StandInAnswer =
  | { readonly summary: string; readonly targetTokens: number; readonly lineChars: number }
  | { readonly problem: string };

function between(text: string, start: string, ends: readonly string[]): string | undefined {
  const from = text.indexOf(start);
  if (from < 0) return undefined;
  const body = text.slice(from + start.length);
  const cut = Math.min(
    ...ends.map((end) => body.indexOf(end)).filter((at) => at >= 0),
    body.length,
  );
  return body.slice(0, cut);
}

function previousLines(prompt: string): string[] {
  const previous = between(prompt, PREVIOUS_START, [PREVIOUS_END]) ?? "";
  const start = previous.indexOf(STAND_IN_HEADING);
  if (start < 0) return [];
  const lines: string[] = [];
  for (const line of previous.slice(start + STAND_IN_HEADING.length).split("\n")) {
    if (line.startsWith("## ")) break;
    if (line.startsWith("- ")) lines.push(line.slice(2));
  }
  return lines;
}

function render(lines: readonly string[], chars: number): string {
  return [STAND_IN_HEADING, ...lines.map((line) => `- ${line.slice(0, chars)}`)].join("\n");
}

/** The stand-in's summary of `prompt`, the text of Hermes's summary request. */
export function standInSummary(prompt: string): StandInAnswer {
  const target = TARGET.exec(prompt);
  if (!target) return { problem: "the summary prompt states no token target" };
  const block = TURN_BLOCKS.map(([start, ends]) => between(prompt, start, [...ends, MEMORY_BLOCK]))
    .find((found) => found !== undefined);
  if (block === undefined) return { problem: "the summary prompt holds no turns" };
  const records = block.split(RECORD_START).map((record) => record.replace(/\s+/g, " ").trim())
    .filter((record) => record !== "");
  let lines = [...previousLines(prompt), ...records];
  const targetTokens = Number(target[1]);
  const budget = targetTokens * 4;
  let low = 0, high = Math.max(0, ...lines.map((line) => line.length));
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (render(lines, middle).length <= budget) low = middle;
    else high = middle - 1;
  }
  let lineChars = Math.max(low, MIN_LINE_CHARS);
  while (lines.length > 0 && render(lines, lineChars).length > budget) lines = lines.slice(1);
  if (lines.length === 0) lineChars = 0;
  return { summary: render(lines, lineChars), targetTokens, lineChars };
}
