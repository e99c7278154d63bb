/** A mistake in what the user asked for: printed as one line, exit code 2. */
export class UsageError extends Error {
  /** Process exit code for this error. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Something outside the user's request failed (a database, a server): one line, exit code 1. */
export class RuntimeFailure extends Error {
  /** Process exit code for this error. */
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = "RuntimeFailure";
  }
}
