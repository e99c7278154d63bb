import { newestSummaryBody } from "./latest_summary.ts";
import type { SessionRows } from "./session_rows.ts";
import { StateDb } from "./state_db.ts";
import { StoreError } from "./store_error.ts";
import { windowOrigins } from "./window_origins.ts";

/** A window read against its store: its messages matched to their originals, and more. */
export interface StoredWindowRead {
  /** The window's messages, each matched one carrying its original row (see `windowOrigins`). */
  readonly messages: unknown[];
  /** What to project: the messages, and the stored calls of results whose call they lack. */
  readonly window: unknown[];
  /** How many messages were matched to a stored row. */
  readonly matched: number;
  /** The newest compaction summary stored for the session, if any. */
  readonly latestSummary?: string;
  /** Why the store could not be read (the window is then returned as given). */
  readonly problem?: string;
}

// Sessions whose row index a reader keeps between compactions.
const KEPT_SESSIONS = 8;

/**
 * Reads windows against their stores, keeping each session's row index between calls so a later
 * compaction of the same session reads only the rows stored since.
 */
export class StoredWindowReader {
  readonly #kept = new Map<string, SessionRows>();

  /**
   * Opens `path` read-only and reads, in one snapshot, the originals of `messages` (session
   * `sessionId`) and the session's newest stored summary. Never throws: a store that cannot be
   * read leaves the window as it is, with the reason in `problem`.
   */
  read(messages: unknown[], path: string, sessionId: string): StoredWindowRead {
    const key = `${path}\u0000${sessionId}`;
    let db: StateDb | undefined;
    try {
      db = StateDb.open(path);
      const store = db;
      const { index, ...origins } = store.read(() =>
        windowOrigins(store, sessionId, messages, this.#kept.get(key))
      );
      this.#kept.delete(key);
      this.#kept.set(key, index);
      if (this.#kept.size > KEPT_SESSIONS) this.#kept.delete(this.#kept.keys().next().value!);
      const summary = index.newestSummary === undefined
        ? undefined
        : newestSummaryBody(index.newestSummary);
      return { ...origins, ...(summary === undefined ? {} : { latestSummary: summary }) };
    } catch (error) {
      this.#kept.delete(key);
      const problem = error instanceof StoreError
        ? error.message
        : `${error instanceof Error ? error.name : "Error"} while reading ${path}`;
      return { messages, window: messages, matched: 0, problem };
    } finally {
      db?.close();
    }
  }
}
