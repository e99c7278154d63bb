import { jsonSyntaxError } from "./_json_syntax_error.ts";
import { UsageError } from "./_errors.ts";

/**
 * The one-line error for JSON text that does not parse: where it breaks (line and column, lines
 * counted from `firstLine`) and what was expected there, in vcc's words rather than the engine's.
 */
export function invalidJson(text: string, source: string, firstLine = 1): UsageError {
  const syntax = jsonSyntaxError(text);
  if (syntax === undefined) return new UsageError(`${source}: invalid JSON`);
  const before = text.slice(0, syntax.offset);
  const line = before.split("\n").length - 1 + firstLine;
  const column = syntax.offset - before.lastIndexOf("\n");
  return new UsageError(
    `${source}: invalid JSON at line ${line}, column ${column}: ${syntax.problem}`,
  );
}
