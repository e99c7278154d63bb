/** Why a state database could not be read. */
export type StoreProblem = "missing" | "locked" | "corrupt" | "not-hermes" | "unreadable";

/** A state database could not be opened or read; the message is one line for the user. */
export class StoreError extends Error {
  constructor(readonly problem: StoreProblem, message: string) {
    super(message);
    this.name = "StoreError";
  }
}

/** Turns an error thrown by SQLite while reading `path` into a {@linkcode StoreError}. */
export function storeErrorFrom(error: unknown, path: string): StoreError {
  if (error instanceof StoreError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (/database is locked|SQLITE_BUSY/i.test(detail)) {
    return new StoreError("locked", `${path} is locked by another process; try again`);
  }
  if (/not a database|malformed|corrupt/i.test(detail)) {
    return new StoreError("corrupt", `${path} is not a readable SQLite database (${detail})`);
  }
  if (/unable to open|no such file|cannot open/i.test(detail)) {
    return new StoreError("missing", `cannot open ${path}`);
  }
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return new StoreError("unreadable", `no permission to read ${path}`);
  }
  return new StoreError("unreadable", `cannot read ${path}: ${detail.split("\n")[0]}`);
}
