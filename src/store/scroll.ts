import { readMessages, type StoredMessage } from "./messages.ts";
import type { StateDb } from "./state_db.ts";

/** The rows around one message, as Hermes's `session_search` scroll mode shows them. */
export interface ScrollView {
  readonly sessionId: string;
  readonly aroundId: number;
  /** Rows from `window` before the anchor to `window` after it, in id order. */
  readonly messages: readonly StoredMessage[];
  /** Rows of the session before and after the ones shown. */
  readonly messagesBefore: number;
  readonly messagesAfter: number;
}

/** Scroll windows are 1 to 20 rows on each side; Hermes's default is 5. */
export const DEFAULT_SCROLL_WINDOW = 5;

/**
 * The `window` rows before and after row `aroundId` of `sessionId`, archived rows included (what
 * `session_search(session_id, around_message_id)` would show), or undefined when the session has
 * no row with that id. Call inside {@linkcode StateDb.read}.
 */
export function scrollAround(
  db: StateDb,
  sessionId: string,
  aroundId: number,
  window = DEFAULT_SCROLL_WINDOW,
): ScrollView | undefined {
  const rows = readMessages(db, sessionId);
  const at = rows.findIndex((row) => row.id === aroundId);
  if (at < 0) return undefined;
  const first = Math.max(0, at - window);
  const last = Math.min(rows.length - 1, at + window);
  return {
    sessionId,
    aroundId,
    messages: rows.slice(first, last + 1),
    messagesBefore: first,
    messagesAfter: rows.length - 1 - last,
  };
}
