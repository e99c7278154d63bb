import { HERMES_RULES } from "../compaction/mod.ts";
import { HERMES_GENERATIONS, type HermesGeneration } from "../core/mod.ts";
import type { StateDb } from "./state_db.ts";

/**
 * The Hermes generation whose rules apply to this store, told by its schema (Hermes migrates
 * the store when it opens it): the newest whose marker column the store has, else the oldest.
 */
export function storeGeneration(db: StateDb): HermesGeneration {
  const columns = db.columns("messages");
  const marked = HERMES_GENERATIONS.findLast((generation) => {
    const marker = HERMES_RULES[generation].storeMarker;
    return marker !== undefined && columns.has(marker);
  });
  return marked ?? HERMES_GENERATIONS[0];
}
