import { jsonErrorPosition } from "./_json_error_position.ts";
import { UsageError } from "./_errors.ts";

/** Parses JSON text, turning a syntax error into a {@linkcode UsageError} naming line and column. */
export function parseJsonText(text: string, source: string, firstLine = 1): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const where = lineAndColumn(text, jsonErrorPosition(text), firstLine);
    const reason = detail.replace(/\s*(?:in JSON )?at position \d+.*$/, "").replace(
      /, ".*" is not valid JSON$/,
      "",
    );
    throw new UsageError(`${source}: invalid JSON${where}: ${reason}`);
  }
}

function lineAndColumn(text: string, position: number, firstLine: number): string {
  const before = text.slice(0, position);
  const line = before.split("\n").length - 1 + firstLine;
  const column = position - before.lastIndexOf("\n");
  return ` at line ${line}, column ${column}`;
}
