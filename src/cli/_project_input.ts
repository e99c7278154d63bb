import type { ProjectOptions } from "../core/mod.ts";
import { type ProjectRequest, ProjectRequestError, readProjectRequest } from "../wire/mod.ts";
import { UsageError } from "./_errors.ts";
import { parseJsonText } from "./_json_text.ts";

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
  const source = args.file && args.file !== "-" ? args.file : "standard input";
  const text = args.file && args.file !== "-"
    ? await readText(args.file)
    : await new Response(Deno.stdin.readable).text();
  const parsed = parseWindowText(text, source);
  const options: ProjectOptions = {
    ...parsed.options,
    ...pick("sessionId", args.sessionId),
    ...pick("budgetTokens", args.budgetTokens),
    ...pick("previous", args.previous !== undefined ? await readText(args.previous) : undefined),
    ...pick("focus", args.focus),
  };
  return { ...parsed, options };
}

function pick<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Reads a text file; a missing or unreadable file becomes a one-line {@linkcode UsageError}. */
export async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new UsageError(`cannot read ${path}: ${reason}`);
  }
}

/**
 * Parses a window given as a JSON array, an object with `messages`, or JSON Lines (one message per
 * line). Throws a {@linkcode UsageError} for text that is none of these.
 */
export function parseWindowText(text: string, source: string): ProjectRequest {
  const trimmed = text.trim();
  if (trimmed === "") {
    throw new UsageError(`${source}: empty input, expected a JSON array of messages`);
  }
  if (trimmed.startsWith("{") && looksLikeJsonLines(trimmed)) {
    return { messages: parseJsonLines(text, source), options: {} };
  }
  const value = parseJsonText(text, source);
  if (Array.isArray(value)) return { messages: value, options: {} };
  if (value !== null && typeof value === "object") {
    return fromObject(value as Record<string, unknown>, source);
  }
  throw new UsageError(`${source}: expected a JSON array of messages or an object with "messages"`);
}

function looksLikeJsonLines(text: string): boolean {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 1 &&
    lines.every((line) => line.trimStart().startsWith("{") && line.trimEnd().endsWith("}"));
}

function parseJsonLines(text: string, source: string): unknown[] {
  const messages: unknown[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() !== "") messages.push(parseJsonText(line, source, index + 1));
  });
  return messages;
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
