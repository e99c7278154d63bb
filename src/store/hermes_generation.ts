import type { HermesGeneration } from "../compaction/hermes_rules.ts";
import type { StateDb } from "./state_db.ts";

/**
 * The Hermes generation whose rules apply to this store, told by its schema (Hermes migrates
 * the store when it opens it): 0.22 once messages carry uids (schema 31), else 0.19.
 */
export function storeGeneration(db: StateDb): HermesGeneration {
  return db.columns("messages").has("message_uid") ? "0.22" : "0.19";
}
