import { fingerprint } from "../core/mod.ts";
import { isSummaryRow } from "../compaction/mod.ts";
import type { SqlRow, StateDb } from "./state_db.ts";

// How much of a call's arguments tells two calls apart: Hermes may shorten a copy's long arguments.
const SIGNATURE_CHARS = 200;
// Rows holding one same text kept per text, enough for any text a session repeats in earnest.
const TEXT_MATCHES = 256;

/**
 * What identifies each stored row of one session, for matching window messages to the rows that
 * stored them: role, time, `message_uid`, result call id, the calls made, and a key of the text of
 * requests and replies without calls. Read once, then extended by the rows stored since, so a long
 * session is decoded once per `vcc serve`, not at every compaction. Also tracks the newest summary
 * Hermes stored (a row repeating an earlier row's text is a copy, not a newer summary).
 */
export class SessionRows {
  readonly sessionId: string;
  readonly roleOf: Map<number, string> = new Map();
  readonly timeOf: Map<number, number> = new Map();
  readonly byUid: Map<string, number[]> = new Map();
  readonly byResultId: Map<string, number[]> = new Map();
  readonly byCallId: Map<string, number[]> = new Map();
  /** By {@linkcode textKey}. */
  readonly byText: Map<string, number[]> = new Map();
  #newestSummary: string | undefined;
  #lastId = 0;
  readonly #signatures = new Map<string, string>();
  // A call id some model reused for different calls names no one call.
  readonly #reused = new Set<string>();

  private constructor(sessionId: string) {
    this.sessionId = sessionId;
  }

  /** The text of the newest summary row stored so far (its whole content). */
  get newestSummary(): string | undefined {
    return this.#newestSummary;
  }

  /**
   * The index of session `sessionId`: `cached` extended by the rows stored since it was read, or
   * read whole when there is none, it is another session's, or the store holds fewer rows than
   * it read (rewound or replaced). Call inside {@linkcode StateDb.read}.
   */
  static read(db: StateDb, sessionId: string, cached?: SessionRows): SessionRows {
    const newest = db.get("SELECT max(id) AS id FROM messages WHERE session_id = ?", sessionId)?.id;
    const reusable = cached !== undefined && cached.sessionId === sessionId &&
      typeof newest === "number" && newest >= cached.#lastId;
    const rows = reusable ? cached : new SessionRows(sessionId);
    rows.#extend(db);
    return rows;
  }

  #extend(db: StateDb): void {
    const has = db.columns("messages");
    // The text of requests, replies and summaries (0.19 merges a summary into an assistant row
    // that made calls); results are matched by their call ids and never decoded here.
    const textual = `${db.select("messages", "role", "''")} != 'tool'`;
    const rows = db.all(
      `SELECT id, ${db.select("messages", "role", "''", true)}, ${
        db.select("messages", "timestamp")
      }, ` +
        `${db.select("messages", "message_uid", "NULL", true)}, ` +
        `${db.select("messages", "tool_call_id", "NULL", true)}, ` +
        `${db.select("messages", "tool_calls", "NULL", true)}, ` +
        `${db.select("messages", "_compressed_summary", "0")}, ` +
        (has.has("content") ? `CASE WHEN ${textual} THEN CAST(content AS BLOB) END` : "NULL") +
        ` AS content FROM messages WHERE session_id = ? AND id > ? ORDER BY id`,
      this.sessionId,
      this.#lastId,
    );
    for (const row of rows) this.#add(row);
  }

  #add(row: SqlRow): void {
    const id = Number(row.id);
    this.#lastId = Math.max(this.#lastId, id);
    const role = String(row.role ?? "");
    this.roleOf.set(id, role);
    if (typeof row.timestamp === "number") this.timeOf.set(id, row.timestamp);
    if (typeof row.message_uid === "string" && row.message_uid !== "") {
      add(this.byUid, row.message_uid, id);
    }
    if (role === "tool" && typeof row.tool_call_id === "string" && row.tool_call_id !== "") {
      if (!this.#reused.has(row.tool_call_id)) add(this.byResultId, row.tool_call_id, id);
    }
    const calls = storedCalls(row.tool_calls);
    for (const [callId, signature] of calls) {
      if (this.#reused.has(callId)) continue;
      const known = this.#signatures.get(callId);
      if (known !== undefined && known !== signature) {
        this.#reused.add(callId);
        this.byCallId.delete(callId);
        this.byResultId.delete(callId);
        continue;
      }
      this.#signatures.set(callId, signature);
      add(this.byCallId, callId, id);
    }
    if (typeof row.content !== "string" || row.content === "") return;
    const key = textKey(role, row.content);
    const earlier = this.byText.get(key);
    // Only messages without calls are matched by their text.
    if (calls.length === 0 && (earlier === undefined || earlier.length < TEXT_MATCHES)) {
      add(this.byText, key, id);
    }
    if (earlier === undefined && isSummaryRow(row)) {
      this.#newestSummary = row.content;
      // A later row repeating it is a copy, not a newer summary.
      if (calls.length > 0) add(this.byText, key, id);
    }
  }
}

/**
 * The key rows holding `role` and `text` are indexed by: its length and two fingerprints, so the
 * texts themselves are not kept. A match found by it is confirmed on the row's text.
 */
export function textKey(role: string, text: string): string {
  return `${role}\u0000${text.length}\u0000${fingerprint(text)}${fingerprint(text.slice(1))}`;
}

function add<K>(map: Map<K, number[]>, key: K, id: number): void {
  const ids = map.get(key);
  if (ids === undefined) map.set(key, [id]);
  else if (ids.at(-1) !== id) ids.push(id);
}

/** The calls of a stored row's `tool_calls` text: each id with the call's tool and first arguments. */
function storedCalls(text: unknown): [string, string][] {
  if (typeof text !== "string" || text === "") return [];
  let calls: unknown;
  try {
    calls = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call) => {
    const id = (call as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || id === "") return [];
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } }).function;
    const args = typeof fn?.arguments === "string" ? fn.arguments : JSON.stringify(fn?.arguments);
    return [[id, `${String(fn?.name)}\u0000${String(args).slice(0, SIGNATURE_CHARS)}`]];
  });
}
