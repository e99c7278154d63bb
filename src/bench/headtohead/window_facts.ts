import { jsonObject } from "../../compaction/mod.ts";

/** A terminal command and what its results said, in the order it ran. */
export interface CommandFact {
  readonly command: string;
  /** Exit codes of its results in order; `undefined` where the result gave none. */
  readonly exits: readonly (number | undefined)[];
  /** Whether a result said the command was blocked or waits for approval. */
  readonly blocked: boolean;
  /** Error names (`FooError`, `FooException`) seen in its output. */
  readonly errorNames: readonly string[];
}

/** Checkable facts of a window, read from its raw rows by rules independent of the projector. */
export interface WindowFacts {
  readonly commands: readonly CommandFact[];
  /** Paths read with read_file, in first-seen order. */
  readonly read: readonly string[];
  /** Paths written or patched, in first-seen order. */
  readonly modified: readonly string[];
}

const ERROR_NAME = /\b([A-Z][A-Za-z]*(?:Error|Exception))\b/g;

/** Reads the facts the head-to-head asks about from a window's rows. */
export function windowFacts(rows: readonly unknown[]): WindowFacts {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const commands = new Map<
    string,
    { exits: (number | undefined)[]; blocked: boolean; names: Set<string> }
  >();
  const read: string[] = [];
  const modified: string[] = [];
  for (const value of rows) {
    const row = (value ?? {}) as Record<string, unknown>;
    if (Array.isArray(row.tool_calls)) {
      for (const call of row.tool_calls as { id?: unknown; function?: Record<string, unknown> }[]) {
        const name = String(call?.function?.name ?? "");
        const args = jsonObject(call?.function?.arguments);
        if (typeof call?.id === "string") calls.set(call.id, { name, args });
        const path = typeof args.path === "string" ? args.path : undefined;
        if (path && name === "read_file" && !read.includes(path)) read.push(path);
        if (path && (name === "patch" || name === "write_file") && !modified.includes(path)) {
          modified.push(path);
        }
      }
    }
    if (row.role !== "tool" || typeof row.content !== "string") continue;
    const call = calls.get(String(row.tool_call_id));
    const command = call?.name === "terminal" ? call.args.command : undefined;
    if (typeof command !== "string" || command === "") continue;
    const fact = commands.get(command) ?? { exits: [], blocked: false, names: new Set<string>() };
    commands.set(command, fact);
    const result = jsonObject(row.content);
    const stubExit = /-> exit (-?\d+),/.exec(row.content)?.[1];
    const exit = typeof result.exit_code === "number"
      ? result.exit_code
      : stubExit === undefined
      ? undefined
      : Number(stubExit);
    fact.exits.push(exit);
    if (result.status === "blocked" || result.status === "pending_approval") fact.blocked = true;
    for (const match of row.content.matchAll(ERROR_NAME)) fact.names.add(match[1]!);
  }
  return {
    commands: [...commands].map(([command, fact]) => ({
      command,
      exits: fact.exits,
      blocked: fact.blocked,
      errorNames: [...fact.names],
    })),
    read,
    modified,
  };
}
