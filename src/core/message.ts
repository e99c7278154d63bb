import { canonicalJson } from "./canonical_json.ts";
import { contentText, isRecord } from "./content.ts";
import { cut } from "./excerpt.ts";
import { DEFERRED_TOOL_BRIDGE } from "./hermes.ts";
import { type Ref, windowRef } from "./ref.ts";
import { sanitizeInline } from "./sanitize.ts";

/** Longest tool name shown in a line. */
const TOOL_LABEL_CHARS = 64;

/** A tool call as the assistant made it, with its arguments decoded where possible. */
export interface ToolCall {
  /** `tool_calls[].id`; empty when absent. */
  readonly id: string;
  /** The tool's name as sent: compared, never shown. */
  readonly name: string;
  /** The tool's name as shown: sanitised and cut to one short line. */
  readonly label: string;
  /** Decoded arguments; empty when `arguments` was not a JSON object. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The arguments as sent (a JSON string, or the canonical text of a decoded value). */
  readonly argsText: string;
  readonly argsValid: boolean;
}

/** The roles the projector understands. */
export type Role = "system" | "user" | "assistant" | "tool";

/** One usable message of the window, normalised. */
export interface Row {
  /** Position in the input array (0-based). */
  readonly index: number;
  readonly ref: Ref;
  readonly role: Role;
  /** Content flattened to text. */
  readonly text: string;
  /** Assistant tool calls, in order. */
  readonly toolCalls: readonly ToolCall[];
  /** Tool rows: the call this result answers, and the tool's name as sent and as shown. */
  readonly toolCallId: string;
  readonly toolName: string;
  readonly toolLabel: string;
  /** When the message was recorded (`timestamp`, epoch seconds), when the row says. */
  readonly time: number | undefined;
  /**
   * For a result Hermes replaced with its persisted-output block: the whole output it saved, when
   * the reader of the store found that file (`SAVED_OUTPUT_FIELD`).
   */
  readonly savedOutput?: string;
}

/**
 * The field of a tool message that carries the whole output Hermes saved to a file in place of
 * the result (set by the store's reader, never by Hermes).
 */
export const SAVED_OUTPUT_FIELD = "_saved_output";

/** A normalised window: the usable rows plus counts of what could not be used. */
export interface Window {
  readonly rows: readonly Row[];
  readonly inputMessages: number;
  readonly skippedMessages: number;
  readonly invalidArguments: number;
}

// Older and newer names for the same roles.
const ROLE_ALIASES: Readonly<Record<string, Role>> = {
  system: "system",
  developer: "system",
  user: "user",
  assistant: "assistant",
  tool: "tool",
  function: "tool",
};

/**
 * Normalises any JSON value into a {@linkcode Window}. Entries that are not objects or carry no
 * known role are counted and skipped; nothing throws.
 */
export function normalizeWindow(window: unknown): Window {
  if (!Array.isArray(window)) {
    return {
      rows: [],
      inputMessages: 0,
      skippedMessages: window === undefined ? 0 : 1,
      invalidArguments: 0,
    };
  }
  const rows: Row[] = [];
  let skipped = 0;
  let invalidArguments = 0;
  // A window names few tools many times over.
  const labels = new Map<string, string>();
  const label = (name: string) => {
    let shown = labels.get(name);
    if (shown === undefined) labels.set(name, shown = toolLabel(name));
    return shown;
  };
  window.forEach((message: unknown, index) => {
    const role = isRecord(message) && typeof message.role === "string"
      ? ROLE_ALIASES[message.role]
      : undefined;
    if (!isRecord(message) || role === undefined) {
      skipped++;
      return;
    }
    const toolCalls = role === "assistant" ? readToolCalls(message.tool_calls, label) : [];
    invalidArguments += toolCalls.filter((call) => !call.argsValid).length;
    const toolName = typeof message.tool_name === "string"
      ? message.tool_name
      : typeof message.name === "string"
      ? message.name
      : "";
    rows.push({
      index,
      ref: windowRef(message, index),
      role,
      text: contentText(message.content),
      toolCalls,
      toolCallId: typeof message.tool_call_id === "string" ? message.tool_call_id : "",
      toolName,
      toolLabel: label(toolName),
      time: typeof message.timestamp === "number" && Number.isFinite(message.timestamp)
        ? message.timestamp
        : undefined,
      ...(role === "tool" && typeof message[SAVED_OUTPUT_FIELD] === "string"
        ? { savedOutput: message[SAVED_OUTPUT_FIELD] }
        : {}),
    });
  });
  return { rows, inputMessages: window.length, skippedMessages: skipped, invalidArguments };
}

/**
 * A tool name as a line shows it: sanitised, one word (spaces become `_`), at most 64 characters,
 * `tool` when nothing is left.
 */
export function toolLabel(name: string): string {
  return cut(sanitizeInline(name).replace(/ /g, "_"), TOOL_LABEL_CHARS) || "tool";
}

function readToolCalls(value: unknown, label: (name: string) => string): ToolCall[] {
  if (!Array.isArray(value)) return [];
  const calls: ToolCall[] = [];
  for (const entry of value) {
    if (!isRecord(entry)) continue;
    const fn = isRecord(entry.function) ? entry.function : entry;
    const name = typeof fn.name === "string" && fn.name !== "" ? fn.name : "";
    if (name === "") continue;
    const decoded = decodeArguments(fn.arguments);
    const bridged = name === DEFERRED_TOOL_BRIDGE ? bridgedCall(decoded.args) : undefined;
    calls.push({
      id: typeof entry.id === "string" ? entry.id : "",
      ...(bridged
        ? { name: bridged.name, label: label(bridged.name), ...decodeArguments(bridged.arguments) }
        : { name, label: label(name), ...decoded }),
    });
  }
  return calls;
}

/**
 * The one call a call of Hermes's deferred-tool bridge carries (`{"calls": [{"name", "arguments"}]}`;
 * Hermes splits a batch into one bridge call per entry before it stores it), so it reads as the
 * tool it runs; `undefined` for a batch or anything else.
 */
function bridgedCall(
  args: Readonly<Record<string, unknown>>,
): { name: string; arguments: unknown } | undefined {
  const calls = args.calls;
  if (!Array.isArray(calls) || calls.length !== 1 || !isRecord(calls[0])) return undefined;
  const { name, arguments: inner } = calls[0];
  return typeof name === "string" && name !== "" && name !== DEFERRED_TOOL_BRIDGE
    ? { name, arguments: inner ?? {} }
    : undefined;
}

function decodeArguments(
  raw: unknown,
): { args: Record<string, unknown>; argsText: string; argsValid: boolean } {
  if (isRecord(raw)) return { args: raw, argsText: canonicalJson(raw), argsValid: true };
  if (typeof raw !== "string") {
    return {
      args: {},
      argsText: raw === undefined ? "" : canonicalJson(raw),
      argsValid: raw === undefined,
    };
  }
  if (raw.trim() === "") return { args: {}, argsText: raw, argsValid: true };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecord(parsed)) return { args: parsed, argsText: raw, argsValid: true };
  } catch {
    // Invalid JSON (or nesting too deep to parse): fall through and salvage what can be read.
  }
  return { args: salvageArguments(raw), argsText: raw, argsValid: false };
}

const SALVAGED_KEYS = ["command", "path", "file_path", "workdir", "output_path", "code", "pattern"];

/** Reads the well-known string arguments out of malformed JSON text (e.g. a truncated call). */
function salvageArguments(raw: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const key of SALVAGED_KEYS) {
    const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"?`).exec(raw);
    if (match?.[1] !== undefined) args[key] = unescapeJsonString(match[1]);
  }
  return args;
}

function unescapeJsonString(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text.replace(/\\(.)/g, "$1");
  }
}
