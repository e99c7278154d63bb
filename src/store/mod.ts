/**
 * Read-only access to Hermes's session store, `state.db` (node:sqlite). Opening uses SQLite's
 * read-only flag, reads run in one snapshot transaction so Hermes can keep writing (WAL), and
 * columns are discovered per database so older and newer schema versions both work.
 *
 * @module
 */
export { defaultStateDbPath, type EnvLookup, processEnv } from "./default_path.ts";
export { type MessageFilter, readMessages, type StoredMessage, toWindowRow } from "./messages.ts";
export { DEFAULT_SCROLL_WINDOW, scrollAround, type ScrollView } from "./scroll.ts";
export { findSession, listSessions, type SessionInfo } from "./sessions.ts";
export { type SqlRow, StateDb } from "./state_db.ts";
export { StoreError, type StoreProblem } from "./store_error.ts";
export { type HeldSession, type StoreStats, storeStats } from "./store_stats.ts";
export { type CompactionHold, compactionHolds, type CompactionState } from "./compaction_holds.ts";
export { storeGeneration } from "./hermes_generation.ts";
export { newestSummaryBody } from "./latest_summary.ts";
export { SessionRows } from "./session_rows.ts";
export { type ProjectionInput, projectionInput } from "./projection_input.ts";
export { type StoredWindowRead, StoredWindowReader } from "./stored_window.ts";
export { type WindowOrigins, windowOrigins } from "./window_origins.ts";
