import type { ProjectOptions } from "../core/mod.ts";
import { type ProjectRequest, ProjectRequestError, readProjectRequest } from "../wire/mod.ts";
import { UsageError } from "./_errors.ts";
import { readInputText } from "./_input_files.ts";
import { invalidJson } from "./_json_text.ts";

/** What `vcc project` reads: the window plus the options it carries, flags taking precedence. */
export type ProjectInput = ProjectRequest;

/** The flags of `vcc project` that locate and override its input. */
export interface ProjectInputArgs {
  readonly file?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly previous?: string | undefined;
  readonly focus?: string | undefined;
  readonly budgetTokens?: number | undefined;
}

/** Reads the window named by `args.file` (stdin for `-` or none) and applies the flags. */
export async function readProjectInput(args: ProjectInputArgs): Promise<ProjectInput> {
  const file = args.file ?? "-";
  const parsed = parseWindowText(
    await readInputText(file),
    file === "-" ? "standard input" : file,
  );
  const options: ProjectOptions = {
    ...parsed.options,
    ...pick("sessionId", args.sessionId),
    ...pick("budgetTokens", args.budgetTokens),
    ...pick(
      "previous",
      args.previous !== undefined ? await readInputText(args.previous) : undefined,
    ),
    ...pick("focus", args.focus),
  };
  return { ...parsed, options };
}

function pick<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * Parses a window given as a JSON array, an object with `messages`, or JSON Lines (one message per
 * line). Throws a {@linkcode UsageError} for text that is none of these, naming the line and
 * column where it breaks (in JSON Lines, the broken line's).
 */
export function parseWindowText(text: string, source: string): ProjectRequest {
  if (text.trim() === "") {
    throw new UsageError(`${source}: empty input, expected a JSON array of messages`);
  }
  const value = parsedJson(text);
  if (value === undefined) return { messages: jsonLines(text, source), options: {} };
  if (Array.isArray(value)) return { messages: value, options: {} };
  if (value !== null && typeof value === "object") {
    return fromObject(value as Record<string, unknown>, source);
  }
  throw new UsageError(`${source}: expected a JSON array of messages or an object with "messages"`);
}

/** The value of JSON text, or undefined when it is not JSON (JSON has no undefined). */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The values of text that is not one JSON document, read as JSON Lines when it looks like them:
 * two or more lines, all but one of which, or more than half, are JSON by themselves (the lines
 * of a JSON document spread over lines rarely are). Throws the error of the first broken line, or,
 * for text that is not JSON Lines, of the text as one document.
 */
function jsonLines(text: string, source: string): unknown[] {
  const lines = text.split("\n")
    .map((line, index) => ({ line, number: index + 1, value: parsedJson(line) }))
    .filter(({ line }) => line.trim() !== "");
  const broken = lines.filter(({ value }) => value === undefined);
  if (lines.length < 2 || (broken.length > 1 && broken.length * 2 >= lines.length)) {
    throw invalidJson(text, source);
  }
  const [first] = broken;
  if (first !== undefined) throw invalidJson(first.line, source, first.number);
  return lines.map(({ value }) => value);
}

function fromObject(object: Record<string, unknown>, source: string): ProjectRequest {
  if (!("messages" in object)) {
    if ("role" in object) return { messages: [object], options: {} };
    throw new UsageError(`${source}: the object has no "messages" array`);
  }
  try {
    return readProjectRequest(object);
  } catch (error) {
    if (error instanceof ProjectRequestError) throw new UsageError(`${source}: ${error.message}`);
    throw error;
  }
}
