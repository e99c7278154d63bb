/** Options that steer one projection. Every field is optional. */
export interface ProjectOptions {
  /** Hermes session id, named in the session log's header note. */
  readonly sessionId?: string;
  /** Hard size limit in tokens; the body never exceeds `budgetTokens × 4` characters. */
  readonly budgetTokens?: number;
  /** The previous projection (possibly redacted and extended by Hermes) to merge. */
  readonly previous?: string;
  /** A focus topic: what matches it is kept first where the budget forces a choice. */
  readonly focus?: string;
}

/** How many entries each section dropped to stay within its cap or the budget. */
export interface OmittedCounts {
  readonly requests: number;
  readonly files: number;
  readonly commands: number;
  readonly blocked: number;
  readonly fixes: number;
  readonly errorNames: number;
  /** Messages (and previous log lines) of which the session log kept no line. */
  readonly logEntries: number;
}

/** Counts that describe one projection. */
export interface ProjectionStats {
  /** Entries in the input array. */
  readonly inputMessages: number;
  /** Entries that could not be used (not an object, unknown role, …) and were skipped. */
  readonly skippedMessages: number;
  /** Tool calls whose `arguments` were not valid JSON. */
  readonly invalidArguments: number;
  readonly requests: number;
  readonly commands: number;
  readonly files: number;
  readonly errors: number;
  readonly errorNames: number;
  readonly blocked: number;
  readonly fixes: number;
  readonly logLines: number;
  readonly omitted: OmittedCounts;
  /** Whether a previous projection was merged. */
  readonly merged: boolean;
  /** Length of the body in UTF-16 code units (never above `budgetChars`). */
  readonly chars: number;
  readonly budgetChars: number;
}

/** The result of {@linkcode project}: the Markdown body and its stats. */
export interface Projection {
  readonly body: string;
  readonly stats: ProjectionStats;
}
