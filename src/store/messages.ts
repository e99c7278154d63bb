import type { SqlRow, StateDb } from "./state_db.ts";
import { STORED_JSON_PREFIX } from "../core/hermes.ts";

/** One row of Hermes's `messages` table, with the columns vcc uses. */
export interface StoredMessage {
  /** `messages.id`: the `_row_id` and `around_message_id` of this row. */
  readonly id: number;
  readonly sessionId: string;
  readonly role: string;
  /** Content as stored: plain text, or JSON text for multimodal content. */
  readonly content: string | null;
  readonly toolCallId: string | null;
  /** `tool_calls` as stored: JSON text. */
  readonly toolCalls: string | null;
  readonly toolName: string | null;
  readonly timestamp: number | null;
  /** False for rows a compaction archived. */
  readonly active: boolean;
  readonly compacted: boolean;
  /** Whether Hermes flagged this row as a compaction summary. */
  readonly summary: boolean;
  /** How Hermes shows the row (`hidden`, `steer`, …); null for an ordinary message. */
  readonly displayKind: string | null;
  /** The text Hermes sends the model instead of `content`, when it differs. */
  readonly apiContent: string | null;
  /** The model's reasoning text on an assistant row, as stored (`reasoning`, `reasoning_content`). */
  readonly reasoning: string | null;
  readonly reasoningContent: string | null;
}

/** Which rows of a session {@linkcode readMessages} returns. */
export interface MessageFilter {
  /** Only rows still in the live transcript (`active = 1`). */
  readonly activeOnly?: boolean;
  /** Only rows with `id` in this inclusive range. */
  readonly fromId?: number;
  readonly toId?: number;
  /** Only rows with one of these ids. */
  readonly ids?: readonly number[];
}

/** The session's message rows in id order. Call inside {@linkcode StateDb.read}. */
export function readMessages(
  db: StateDb,
  sessionId: string,
  filter: MessageFilter = {},
): StoredMessage[] {
  const where = ["session_id = ?"];
  const params: (string | number)[] = [sessionId];
  if (filter.activeOnly && db.columns("messages").has("active")) where.push("active = 1");
  if (filter.fromId !== undefined) {
    where.push("id >= ?");
    params.push(filter.fromId);
  }
  if (filter.toId !== undefined) {
    where.push("id <= ?");
    params.push(filter.toId);
  }
  if (filter.ids !== undefined) {
    where.push(`id IN (${filter.ids.map(() => "?").join(", ") || "NULL"})`);
    params.push(...filter.ids);
  }
  const columns = [
    "id",
    "session_id",
    db.select("messages", "role", "''", true),
    db.select("messages", "content", "NULL", true),
    db.select("messages", "tool_call_id", "NULL", true),
    db.select("messages", "tool_calls", "NULL", true),
    db.select("messages", "tool_name", "NULL", true),
    db.select("messages", "timestamp"),
    db.select("messages", "active", "1"),
    db.select("messages", "compacted", "0"),
    db.select("messages", "_compressed_summary", "0"),
    db.select("messages", "display_kind", "NULL", true),
    db.select("messages", "api_content", "NULL", true),
    db.select("messages", "reasoning", "NULL", true),
    db.select("messages", "reasoning_content", "NULL", true),
  ];
  return db.all(
    `SELECT ${columns.join(", ")} FROM messages WHERE ${where.join(" AND ")} ORDER BY id`,
    ...params,
  ).map(toStoredMessage);
}

function toStoredMessage(row: SqlRow): StoredMessage {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: Number(row.id),
    sessionId: String(row.session_id),
    role: String(row.role ?? ""),
    content: text(row.content),
    toolCallId: text(row.tool_call_id),
    toolCalls: text(row.tool_calls),
    toolName: text(row.tool_name),
    timestamp: typeof row.timestamp === "number" ? row.timestamp : null,
    active: Number(row.active ?? 1) !== 0,
    compacted: Number(row.compacted ?? 0) !== 0,
    summary: Number(row._compressed_summary ?? 0) !== 0,
    displayKind: text(row.display_kind),
    apiContent: text(row.api_content),
    reasoning: text(row.reasoning),
    reasoningContent: text(row.reasoning_content),
  };
}

/**
 * A stored row in the shape Hermes hands to its summary step: decoded `tool_calls`, multimodal
 * content decoded from its JSON text, and `_row_id` set to the row's id.
 */
export function toWindowRow(message: StoredMessage): Record<string, unknown> {
  const row: Record<string, unknown> = {
    role: message.role,
    content: decodeContent(message.content),
  };
  const calls = parseJson(message.toolCalls);
  if (Array.isArray(calls) && calls.length > 0) row.tool_calls = calls;
  if (message.toolCallId !== null) row.tool_call_id = message.toolCallId;
  if (message.toolName !== null) row.tool_name = message.toolName;
  if (message.timestamp !== null) row.timestamp = message.timestamp;
  if (message.summary) row._compressed_summary = true;
  if (message.displayKind !== null) row.display_kind = message.displayKind;
  if (message.apiContent !== null) row.api_content = message.apiContent;
  if (message.reasoning !== null) row.reasoning = message.reasoning;
  if (message.reasoningContent !== null) row.reasoning_content = message.reasoningContent;
  row._row_id = message.id;
  return row;
}

/**
 * A stored content as Hermes reads it back: the JSON its store marked as such decoded (a list of
 * parts, a multimodal tool dict), any other text as it is; text the mark precedes but that is not
 * such JSON stays text, without the mark.
 */
function decodeContent(content: string | null): unknown {
  if (content === null) return "";
  if (!content.startsWith(STORED_JSON_PREFIX)) return content;
  const json = content.slice(STORED_JSON_PREFIX.length);
  const value = parseJson(json);
  const parts = Array.isArray(value) &&
    value.every((part) => typeof part === "object" && part !== null && "type" in part);
  const multimodal = value !== null && typeof value === "object" &&
    (value as Record<string, unknown>)._multimodal === true;
  return parts || multimodal ? value : json;
}

function parseJson(text: string | null): unknown {
  if (text === null || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
