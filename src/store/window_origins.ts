/**
 * The stored originals of a window's messages. What Hermes hands to its summary step is not always
 * what it stored: it prunes old tool results to one-line stubs, shortens long call arguments
 * (0.19), stores its protected head again after a compaction under new row ids (same call ids and
 * `message_uid`s; 0.22 keeps their times, 0.19 stamps them anew), hands over a result whose call
 * it merged a summary into (0.19), and does not always pass row ids (0.19 never does, 0.22 not
 * after a restart). The session's rows in `state.db` have the full outputs, the original ids and
 * times: each window message is matched to the first row that stored it, read-only, and a result
 * whose call the window lacks gets its stored call back. A message repeated in earnest (another
 * "continue", the same call id from a model that reuses them for other calls) is not a copy.
 *
 * @module
 */
import { ABSORBED_UIDS_FIELD, isPruningLine, withoutRestatement } from "../core/mod.ts";
import { readMessages, type StoredMessage, toWindowRow } from "./messages.ts";
import { SessionRows, textKey } from "./session_rows.ts";
import type { StateDb } from "./state_db.ts";

/** A window with its messages matched to their stored originals. */
export interface WindowOrigins {
  /**
   * The window's messages, one for one: each matched message carries `_row_id` of its original
   * row, that row's time, and (tool results and calls) the original's content or calls;
   * unmatched messages are as given.
   */
  readonly messages: unknown[];
  /**
   * What to project: `messages`, with the stored call (the assistant row that made it, that call
   * only) put before each result whose call is not in the window.
   */
  readonly window: unknown[];
  /** How many messages were matched to a stored row. */
  readonly matched: number;
  /** The session's row index as read, to extend at the next compaction. */
  readonly index: SessionRows;
}

// Ids per `IN (…)` query, well below SQLite's limit on parameters.
const IDS_PER_QUERY = 500;

/**
 * Matches each message of `window` to the row of session `sessionId` that first stored it. A
 * row with the message's `message_uid`, call ids or role and text is its original when it is
 * the message's own row (`_row_id`) or a copy Hermes made of it, which keeps the original's
 * time; without a time to compare, the first such row after the previous message's (windows
 * are in order). Call inside {@linkcode StateDb.read}.
 */
export function windowOrigins(
  db: StateDb,
  sessionId: string,
  window: readonly unknown[],
  cached?: SessionRows,
): WindowOrigins {
  const index = SessionRows.read(db, sessionId, cached);
  let previous = 0;
  const origins = window.map((message) => {
    const origin = originOf(message, index, previous);
    if (origin !== undefined) previous = Math.max(previous, origin);
    return origin;
  });
  const wanted = [...new Set(origins.filter((id): id is number => id !== undefined))];
  const originals = new Map<number, StoredMessage>();
  for (let start = 0; start < wanted.length; start += IDS_PER_QUERY) {
    const ids = wanted.slice(start, start + IDS_PER_QUERY);
    for (const row of readMessages(db, sessionId, { ids })) originals.set(row.id, row);
  }
  let matched = 0;
  const messages = window.map((message, position) => {
    const original = originals.get(origins[position] as number);
    if (!isMessage(message) || original === undefined || !agrees(message, original)) return message;
    matched++;
    return withOriginal(message, original);
  });
  return { messages, window: withStoredCalls(db, sessionId, messages, index), matched, index };
}

/**
 * `messages` with the stored call put before each result whose call no message of the window
 * makes (0.19 hands over the results of the row it merged a summary into, without that row).
 */
function withStoredCalls(
  db: StateDb,
  sessionId: string,
  messages: readonly unknown[],
  index: SessionRows,
): unknown[] {
  const called = new Set(
    messages.flatMap((message) =>
      isMessage(message) && message.role === "assistant" ? callIds(message.tool_calls) : []
    ),
  );
  const missing = new Map<number, string[]>();
  for (const message of messages) {
    const id = isMessage(message) && message.role === "tool" ? message.tool_call_id : undefined;
    if (typeof id !== "string" || called.has(id)) continue;
    const row = index.byCallId.get(id)?.[0];
    if (row !== undefined) missing.set(row, [...(missing.get(row) ?? []), id]);
  }
  if (missing.size === 0) return [...messages];
  const calls = new Map<string, Record<string, unknown>>();
  for (const row of readMessages(db, sessionId, { ids: [...missing.keys()] })) {
    const stored = toWindowRow(row);
    for (const call of Array.isArray(stored.tool_calls) ? stored.tool_calls : []) {
      const id = (call as { id?: unknown } | null)?.id;
      if (typeof id !== "string" || !missing.get(row.id)?.includes(id)) continue;
      calls.set(id, {
        role: "assistant",
        content: "",
        tool_calls: [call],
        _row_id: row.id,
        ...(row.timestamp === null ? {} : { timestamp: row.timestamp }),
      });
    }
  }
  return messages.flatMap((message) => {
    const id = isMessage(message) && message.role === "tool" ? message.tool_call_id : undefined;
    const call = typeof id === "string" ? calls.get(id) : undefined;
    if (call === undefined) return [message];
    calls.delete(id as string);
    return [call, message];
  });
}

function isMessage(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    typeof (value as { role?: unknown }).role === "string";
}

function callIds(calls: unknown): string[] {
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call) => {
    const id = (call as { id?: unknown } | null)?.id;
    return typeof id === "string" && id !== "" ? [id] : [];
  });
}

/**
 * The original row of `message`. Known by its uid or call ids, the first row that stored it (a
 * copy comes later, with the original's time on 0.22 and a new one on 0.19). Known only by its
 * role and text, the row with its time, else its own row, else the first after `previous`: none
 * for a message not saved yet that repeats an earlier one.
 */
function originOf(
  message: unknown,
  index: SessionRows,
  previous: number,
): number | undefined {
  if (!isMessage(message)) return undefined;
  const role = message.role as string;
  const rowId = message._row_id;
  const own = typeof rowId === "number" && index.roleOf.get(rowId) === role ? rowId : undefined;
  const calls = callIds(message.tool_calls);
  const candidates = textKeyed(message)
    ? index.byText.get(textKey(role, matchedText(message))) ?? []
    : [];
  // Hermes's restatement of an unfinished request stands for the row that made the request: the
  // one it absorbed (0.22 keeps that row's uid beside the restatement's), else the one with its text.
  if (role === "user" && matchedText(message) !== message.content) {
    const absorbed = uidList(message[ABSORBED_UIDS_FIELD]).flatMap((uid) =>
      index.byUid.get(uid) ?? []
    );
    const request = [...absorbed, ...candidates].find((id) => index.roleOf.get(id) === role);
    if (request !== undefined) return request;
  }
  const keyed = [
    ...(typeof message.message_uid === "string" ? index.byUid.get(message.message_uid) ?? [] : []),
    ...(role === "tool" && typeof message.tool_call_id === "string"
      ? index.byResultId.get(message.tool_call_id) ?? []
      : []),
    ...(role === "assistant" && calls.length > 0 ? index.byCallId.get(calls[0]!) ?? [] : []),
  ];
  if (keyed.length > 0) {
    const first = [...new Set(keyed)].sort((a, b) => a - b)
      .find((id) => index.roleOf.get(id) === role);
    if (first !== undefined) return first;
  }
  const time = own === undefined
    ? typeof message.timestamp === "number" ? message.timestamp : undefined
    : index.timeOf.get(own);
  if (time !== undefined) {
    const copied = candidates.find((id) => index.timeOf.get(id) === time);
    if (copied !== undefined) return copied;
  }
  if (own !== undefined) return own;
  return candidates.find((id) => id > previous);
}

/**
 * The message with its original's row id and time; a tool result gets the original output (the
 * window's may be a pruning stub), an assistant's calls their original arguments (the window's may
 * be shortened) when they are the same calls.
 */
function withOriginal(
  message: Record<string, unknown>,
  original: StoredMessage,
): Record<string, unknown> {
  const stored = toWindowRow(original);
  const out: Record<string, unknown> = { ...message, _row_id: original.id };
  if (original.timestamp !== null) out.timestamp = original.timestamp;
  if (message.role === "tool" && original.content !== null) out.content = stored.content;
  const storedCalls = stored.tool_calls;
  if (
    message.role === "assistant" && Array.isArray(storedCalls) &&
    sameCalls(callIds(message.tool_calls), callIds(storedCalls))
  ) {
    out.tool_calls = storedCalls;
  }
  return out;
}

/**
 * Whether the original can stand for the message: a tool result's holds the same text or the
 * window holds Hermes's pruning stub or placeholder for it; a request or
 * reply matched by its text (not its own row) holds that text. Any other difference means the
 * match was wrong; the message stays.
 */
function agrees(message: Record<string, unknown>, original: StoredMessage): boolean {
  if (typeof message.content !== "string") return true;
  if (message.role === "tool") {
    return message.content === original.content || isPruningLine(message.content);
  }
  return !textKeyed(message) || message._row_id === original.id ||
    matchedText(message) === original.content || message.content === original.content;
}

/** The text a request or reply is matched by: a restated request's own words. */
function matchedText(message: Record<string, unknown>): string {
  const text = message.content as string;
  return message.role === "user" ? withoutRestatement(text.trim()) : text;
}

/** Whether only its role and text can match `message` to a row: a request or reply, no calls. */
function textKeyed(message: Record<string, unknown>): boolean {
  return message.role !== "tool" && callIds(message.tool_calls).length === 0 &&
    typeof message.content === "string" && message.content !== "";
}

function uidList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((uid): uid is string => typeof uid === "string") : [];
}

function sameCalls(a: readonly string[], b: readonly string[]): boolean {
  return a.length > 0 && a.length === b.length && a.every((id, index) => id === b[index]);
}
