import { message, option, optional, text } from "@optique/core";
import { DEFAULT_CONTEXT_TOKENS } from "../compaction/settings.ts";
import { integer, string } from "@optique/core/valueparser";
import type { SessionInfo, StateDb } from "../store/mod.ts";
import { RuntimeFailure, UsageError } from "./_errors.ts";

/** The `--db PATH` option shared by every command that reads Hermes's store. */
export const dbOption = optional(option("--db", string({ metavar: "PATH" }), {
  description:
    message`Hermes's session store (default $HERMES_HOME/state.db, else ~/.hermes/state.db)`,
}));

/** The `--context-tokens N` option of the bench commands that cut stored sessions as Hermes would. */
export const cutContextOption = optional(
  option("--context-tokens", integer({ min: 1000, metavar: "N" }), {
    description: message`Context window used to cut stored sessions (default ${
      text(String(DEFAULT_CONTEXT_TOKENS))
    })`,
  }),
);

/** The store module, loaded on first use so commands without a database start fast. */
export type StoreModule = typeof import("../store/mod.ts");

/**
 * Opens the store at `path` (or the default one) read-only, runs `body` inside one snapshot and
 * closes it. A store that cannot be read (missing, not SQLite, not Hermes's) becomes a one-line
 * {@linkcode UsageError}, exit code 2, like any input file; one locked by another process a
 * {@linkcode RuntimeFailure}, exit code 1. A missing default store is named with `otherwise`, what
 * the command can be given instead.
 */
export async function withStore<T>(
  path: string | undefined,
  body: (db: StateDb, store: StoreModule) => T,
  otherwise = "choose one with --db PATH",
): Promise<T> {
  const store = await import("../store/mod.ts");
  const resolved = path ?? store.defaultStateDbPath();
  if (resolved === undefined) {
    throw new UsageError(`no --db given and neither HERMES_HOME nor HOME is set; ${otherwise}`);
  }
  try {
    using db = store.StateDb.open(resolved);
    return db.read(() => body(db, store));
  } catch (error) {
    if (!(error instanceof store.StoreError)) throw error;
    if (error.problem === "locked") throw new RuntimeFailure(error.message);
    if (path === undefined && error.problem === "missing") {
      throw new UsageError(`${error.message} (the default store); ${otherwise}`);
    }
    throw new UsageError(error.message);
  }
}

/** The session `id` of the store `db`, or the {@linkcode UsageError} of a store without it. */
export function storedSession(db: StateDb, store: StoreModule, id: string): SessionInfo {
  const session = store.findSession(db, id);
  if (!session) throw new UsageError(`no session ${id} in ${db.path}`);
  return session;
}
