import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { StoreError, storeErrorFrom } from "./store_error.ts";

/** A row as node:sqlite returns it. */
export type SqlRow = Record<string, unknown>;

const decoder = new TextDecoder();

/**
 * Hermes's `state.db`, opened read-only. Nothing here can write: the connection is opened with
 * SQLite's read-only flag. Queries made inside {@linkcode StateDb.read} see one consistent
 * snapshot even while Hermes writes (WAL mode). Columns are discovered when the database is
 * opened, so every Hermes schema version that has the `sessions` and `messages` tables works.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeSampleStore } from "./fixture/mod.ts";
 * import { StateDb } from "./state_db.ts";
 * const path = `${Deno.makeTempDirSync()}/state.db`;
 * writeSampleStore(path, { seed: 1 });
 * using db = StateDb.open(path);
 * const row = db.read(() => db.get("SELECT COUNT(*) AS n FROM sessions"));
 * assert.ok(Number(row?.n) > 0);
 * assert.throws(() => db.all("DELETE FROM sessions"), /readonly/);
 * ```
 */
export class StateDb implements Disposable {
  readonly #db: DatabaseSync;
  readonly #columns = new Map<string, ReadonlySet<string>>();

  private constructor(readonly path: string, db: DatabaseSync) {
    this.#db = db;
  }

  /**
   * Opens `path` read-only. Throws a {@linkcode StoreError} when the file is missing, locked
   * for longer than `busyTimeoutMs` (default 2 s), not an SQLite database, or has no Hermes
   * `sessions` and `messages` tables.
   */
  static open(path: string, busyTimeoutMs = 2000): StateDb {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new StoreError("missing", `no state database at ${path}`);
      }
      throw storeErrorFrom(error, path);
    }
    if (!info.isFile) throw new StoreError("missing", `${path} is not a file`);
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path, { readOnly: true });
      // The constructor's `timeout` option is not honoured here; the pragma is.
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    } catch (error) {
      throw storeErrorFrom(error, path);
    }
    const store = new StateDb(path, db);
    try {
      store.read(() => {
        for (const table of ["sessions", "messages"]) {
          if (store.columns(table).size === 0) {
            throw new StoreError("not-hermes", `${path} has no Hermes "${table}" table`);
          }
        }
      });
    } catch (error) {
      db.close();
      throw error;
    }
    return store;
  }

  /** The columns `table` has in this database (empty when the table does not exist). */
  columns(table: string): ReadonlySet<string> {
    let names = this.#columns.get(table);
    if (!names) {
      const rows = this.#db.prepare("SELECT name FROM pragma_table_info(?)").all(table);
      names = new Set(rows.map((row) => String(row.name)));
      this.#columns.set(table, names);
    }
    return names;
  }

  /**
   * SQL for `column` of `table` selected under its own name: the column itself, text read
   * byte-exact (`text: true`, so text holding NUL characters survives), or `fallback` when this
   * schema version lacks the column.
   */
  select(table: string, column: string, fallback = "NULL", text = false): string {
    if (!this.columns(table).has(column)) return `${fallback} AS "${column}"`;
    return text ? `CAST("${column}" AS BLOB) AS "${column}"` : `"${column}"`;
  }

  /** Runs `body` inside one read transaction, so all its queries see the same snapshot. */
  read<T>(body: () => T): T {
    try {
      this.#db.exec("BEGIN");
    } catch (error) {
      throw storeErrorFrom(error, this.path);
    }
    try {
      return body();
    } catch (error) {
      throw isSqliteError(error) ? storeErrorFrom(error, this.path) : error;
    } finally {
      this.#db.exec("ROLLBACK");
    }
  }

  /** All rows of a query; byte-exact text columns come back as strings. */
  all(sql: string, ...params: SQLInputValue[]): SqlRow[] {
    return this.#db.prepare(sql).all(...params).map(decodeRow);
  }

  /** The first row of a query, or undefined. */
  get(sql: string, ...params: SQLInputValue[]): SqlRow | undefined {
    const row = this.#db.prepare(sql).get(...params);
    return row === undefined ? undefined : decodeRow(row);
  }

  /** Closes the connection. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

function isSqliteError(error: unknown): boolean {
  return error instanceof Error &&
    String((error as { code?: unknown }).code).startsWith("ERR_SQLITE");
}

function decodeRow(row: Record<string, unknown>): SqlRow {
  const out: SqlRow = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value instanceof Uint8Array ? decoder.decode(value) : value;
  }
  return out;
}
