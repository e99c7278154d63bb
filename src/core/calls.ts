import { commandOf, displayCommand } from "./command.ts";
import { type ToolEvent } from "./events.ts";
import { cut } from "./excerpt.ts";
import { sanitizeInline } from "./sanitize.ts";

/** Every call of one identical tool + arguments, in the order they were made. */
export interface CallGroup {
  /** Identity: the tool and its canonical arguments (for commands: the command and workdir). */
  readonly key: string;
  readonly tool: string;
  /** What the call was about, one sanitised line: the command, the path, the pattern, … */
  readonly subject: string;
  /** Whether this is command work (terminal, execute_code, process). */
  readonly command: boolean;
  readonly events: ToolEvent[];
}

const SUBJECT_ARGS = [
  "path",
  "file_path",
  "pattern",
  "query",
  "url",
  "goal",
  "name",
  "action",
  "question",
];
const SUBJECT_CHARS = 160;
// Hermes cuts a stub's command to 77 characters and appends "...".
const STUB_PREFIX_CHARS = 77;

/**
 * Groups tool events into identical calls, first-seen order. A command that a pruning stub cut to
 * 80 characters joins the full command it is a prefix of, when the window holds one.
 */
export function groupCalls(events: readonly ToolEvent[]): CallGroup[] {
  const commands = events.map(commandOf);
  // Full commands by their first 77 characters; null where two different commands share them.
  const byPrefix = new Map<string, string | null>();
  for (const command of commands) {
    if (!command || command.truncated || command.text.length < STUB_PREFIX_CHARS) continue;
    const prefix = prefixKey(command.tool, command.text);
    const known = byPrefix.get(prefix);
    byPrefix.set(prefix, known === undefined || known === command.text ? command.text : null);
  }
  const groups = new Map<string, CallGroup>();
  events.forEach((event, index) => {
    const command = commands[index];
    let key: string;
    let text = "";
    if (command) {
      text = command.truncated
        ? byPrefix.get(prefixKey(command.tool, command.text)) ?? command.text
        : command.text;
      const workdir = typeof event.call.args.workdir === "string" ? event.call.args.workdir : "";
      key = `${command.tool}\u0000${text}\u0000${workdir}`;
    } else {
      key = `${event.call.name}\u0000${canonicalArgs(event)}`;
    }
    const group = groups.get(key);
    if (group) group.events.push(event);
    else {
      const subject = command ? displayCommand(text) : subjectOf(event);
      groups.set(key, {
        key,
        tool: event.call.name,
        subject,
        command: command !== undefined,
        events: [event],
      });
    }
  });
  return [...groups.values()];
}

function prefixKey(tool: string, text: string): string {
  return `${tool}\u0000${text.slice(0, STUB_PREFIX_CHARS)}`;
}

function canonicalArgs(event: ToolEvent): string {
  const stub = event.outcome.stub;
  if (Object.keys(event.call.args).length === 0 && stub?.kind === "file") {
    return `path=${stub.path}`;
  }
  return stableJson(event.call.args);
}

// JSON with object keys sorted, so argument order never changes identity.
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function subjectOf(event: ToolEvent): string {
  const args = event.call.args;
  if (typeof args.pattern === "string" && typeof args.path === "string") {
    return cut(sanitizeInline(`${args.pattern} in ${args.path}`), SUBJECT_CHARS);
  }
  for (const key of SUBJECT_ARGS) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") {
      return cut(sanitizeInline(value), SUBJECT_CHARS);
    }
  }
  const stub = event.outcome.stub;
  if (stub?.kind === "file") return cut(sanitizeInline(stub.path), SUBJECT_CHARS);
  const text = event.call.argsText;
  return text === "" || text === "{}" ? "" : cut(sanitizeInline(text), SUBJECT_CHARS);
}
