/**
 * A request's text as a reader of it sees it, for looking planted strings up: every message's
 * text, every tool call's arguments (raw, and their decoded string values), and for a message
 * that is a JSON document its decoded string values too, so a quote or newline inside a tool's
 * JSON output is found as written.
 *
 * @module
 */
import { type ChatRequest, messageText, requestMessages } from "../model/chat_request.ts";

function stringLeaves(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const item of value) stringLeaves(item, out); }
  else if (value && typeof value === "object") {
    for (const item of Object.values(value)) stringLeaves(item, out);
  }
}

function decoded(text: string): string[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return [];
  try {
    const leaves: string[] = [];
    stringLeaves(JSON.parse(trimmed), leaves);
    return leaves;
  } catch {
    return [];
  }
}

/** The searchable text of `request`. */
export function searchableText(request: ChatRequest): string {
  const parts: string[] = [];
  for (const message of requestMessages(request)) {
    const text = messageText(message);
    parts.push(text, ...decoded(text));
    for (const call of message.tool_calls ?? []) {
      const args = String(call.function?.arguments ?? "");
      parts.push(args, ...decoded(args));
    }
  }
  return parts.join("\n");
}
