import { latestSummary } from "./latest_summary.ts";
import { StateDb } from "./state_db.ts";
import { StoreError } from "./store_error.ts";
import { windowOrigins } from "./window_origins.ts";

/** A window read against its store: its messages matched to their originals, and more. */
export interface StoredWindowRead {
  /** The window, each matched message carrying its original row (see `windowOrigins`). */
  readonly messages: unknown[];
  /** How many messages were matched to a stored row. */
  readonly matched: number;
  /** The newest compaction summary stored for the session, if any. */
  readonly latestSummary?: string;
  /** Why the store could not be read (the window is then returned as given). */
  readonly problem?: string;
}

/**
 * Opens `path` read-only and reads, in one snapshot, the originals of `messages` (session
 * `sessionId`) and the session's newest stored summary. Never throws: a store that cannot be read
 * leaves the window as it is, with the reason in `problem`.
 */
export function readStoredWindow(
  messages: unknown[],
  path: string,
  sessionId: string,
): StoredWindowRead {
  let db: StateDb | undefined;
  try {
    db = StateDb.open(path);
    const store = db;
    return store.read(() => {
      const origins = windowOrigins(store, sessionId, messages);
      const summary = latestSummary(store, sessionId);
      return { ...origins, ...(summary === undefined ? {} : { latestSummary: summary }) };
    });
  } catch (error) {
    const problem = error instanceof StoreError
      ? error.message
      : `${error instanceof Error ? error.name : "Error"} while reading ${path}`;
    return { messages, matched: 0, problem };
  } finally {
    db?.close();
  }
}
