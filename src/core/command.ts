import { cut } from "./excerpt.ts";
import type { ToolEvent } from "./events.ts";
import { sanitizeInline } from "./sanitize.ts";

/** Longest command shown in a line; longer ones are cut with `…`. */
const COMMAND_DISPLAY_CHARS = 200;

/** A command-like call: terminal, execute_code or process work, keyed for identity. */
export interface CommandCall {
  readonly tool: string;
  /** The command as the agent wrote it (or as a stub kept it). */
  readonly text: string;
  /** Hermes cut the command to 80 characters in a stub; only a prefix is known. */
  readonly truncated: boolean;
}

/** Reads the command a terminal, execute_code or process event ran, if it is one. */
export function commandOf(event: ToolEvent): CommandCall | undefined {
  const { name, args } = event.call;
  const stub = event.outcome.stub;
  let text = "";
  let truncated = false;
  if (name === "terminal") {
    if (typeof args.command === "string") text = args.command;
    else if (stub?.kind === "terminal") ({ command: text, truncated } = stub);
    if (text !== "" && args.background === true) text = `${text} &`;
  } else if (name === "execute_code") {
    if (typeof args.code === "string") text = args.code;
    else if (stub?.kind === "execute_code") text = stub.code;
  } else if (name === "process" || name === "process_manage") {
    const action = typeof args.action === "string"
      ? args.action
      : stub?.kind === "process"
      ? stub.action
      : "";
    const session = typeof args.session_id === "string"
      ? args.session_id
      : stub?.kind === "process"
      ? stub.session
      : "";
    text = ["process", action, session].filter((part) => part !== "").join(" ");
  } else {
    return undefined;
  }
  if (text.trim() === "") return undefined;
  return { tool: name, text, truncated };
}

/** A command as it is shown: one sanitised line of at most 200 characters. */
export function displayCommand(text: string): string {
  return cut(sanitizeInline(text), COMMAND_DISPLAY_CHARS);
}

/** Inline code for Markdown that survives backticks inside the text. */
export function inlineCode(text: string): string {
  if (!text.includes("`")) return `\`${text}\``;
  const longest = Math.max(...(text.match(/`+/g) ?? [""]).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}
