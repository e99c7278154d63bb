import type { ToolEvent } from "./events.ts";
import { PROCESS_TOOLS, TERMINAL_TOOL } from "./hermes.ts";
import { sanitizeInline } from "./sanitize.ts";
import { shellQuoted } from "./shell_words.ts";

/** The narrowest a call's subject is ever shown; a longer one always carries its fingerprint. */
export const MIN_SUBJECT_WIDTH = 60;

// Hermes cuts long call arguments at a marker.
const ARGUMENT_CUT_MARKER = "⟪HERMES-CONTEXT-COMPRESSION";

/** A command-like call: terminal, execute_code or process work. */
export interface CommandCall {
  readonly tool: string;
  /** The command as the agent wrote it, or the part of it Hermes kept. */
  readonly text: string;
  /** Whether Hermes kept only a prefix (a stub's 80 characters, or cut call arguments). */
  readonly truncated: boolean;
  /** The working directory a terminal command ran in, when the call named one; else "". */
  readonly workdir: string;
}

/** Reads the command a terminal, execute_code or process event ran, if it is one. */
export function commandOf(event: ToolEvent): CommandCall | undefined {
  const { name, args } = event.call;
  const stub = event.outcome.stub;
  let text = "";
  let truncated = false;
  if (name === TERMINAL_TOOL) {
    if (typeof args.command === "string") text = args.command;
    else if (stub?.kind === "terminal") ({ command: text, truncated } = stub);
    if (text !== "" && args.background === true) text = `${text} &`;
  } else if (name === "execute_code") {
    if (typeof args.code === "string") text = args.code;
    else if (stub?.kind === "execute_code") text = stub.code;
  } else if (PROCESS_TOOLS.has(name)) {
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
  const marker = text.indexOf(ARGUMENT_CUT_MARKER);
  if (marker !== -1) {
    text = text.slice(0, marker);
    truncated = true;
  }
  if (text.trim() === "") return undefined;
  const workdir = name === TERMINAL_TOOL && typeof args.workdir === "string" ? args.workdir : "";
  return { tool: name, text, truncated, workdir };
}

/**
 * The command as lines show it: sanitised and folded onto one line (not yet cut to a width).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shownCommand } from "./command.ts";
 * assert.equal(shownCommand("cat <<'EOF' > a.py\nprint(1)\nEOF"), "cat <<'EOF' > a.py print(1) EOF");
 * ```
 */
export function shownCommand(text: string): string {
  return sanitizeInline(text);
}

/**
 * The command line as it ran: one given a working directory changes to it first (`cd DIR &&
 * text`), so its lines say where it ran and the same line run in two directories reads apart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandAsRun } from "./command.ts";
 * const command = { tool: "terminal", text: "pytest -q", truncated: false, workdir: "/srv/api" };
 * assert.equal(commandAsRun(command), "cd /srv/api && pytest -q");
 * ```
 */
export function commandAsRun(command: CommandCall): string {
  return command.workdir === ""
    ? command.text
    : `cd ${shellQuoted(command.workdir)} && ${command.text}`;
}

/**
 * Whether a command line's shown text leaves its identity open, so the line carries its
 * fingerprint: folding changed it, it may be cut to fit, or it ran in a named directory (its key
 * in projections that showed it without the directory, and apart from the same line typed with a
 * `cd`).
 */
export function needsFingerprint(command: CommandCall, shown: string): boolean {
  return shown !== commandAsRun(command) || shown.length > MIN_SUBJECT_WIDTH ||
    command.workdir !== "";
}

/** The identity of a command: its tool, its full text and its working directory. */
export function commandIdentity(tool: string, text: string, workdir: string): string {
  return `${tool}\u0000${text}\u0000${workdir}`;
}

/**
 * Inline code for Markdown that survives backticks inside the text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inlineCode } from "./command.ts";
 * assert.equal(inlineCode("echo `date`"), "`` echo `date` ``");
 * ```
 */
export function inlineCode(text: string): string {
  if (!text.includes("`")) return `\`${text}\``;
  const longest = Math.max(...(text.match(/`+/g) ?? [""]).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}
