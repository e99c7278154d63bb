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
  /** How the running Hermes lets the agent open a cited message; the header says so. */
  readonly recall?: Recall;
}

/**
 * How `session_search` is reached in the running Hermes: called directly (the default) or through
 * its `tool_call` bridge when Hermes defers the tool, and the profile to name so a search of the
 * agent's own session is allowed.
 */
export interface Recall {
  /** `"tool_call"` when Hermes lists `session_search` only through its tool-search bridge. */
  readonly via?: "tool_call";
  /** The active profile's name (`default`, …). */
  readonly profile?: string;
  /**
   * A command line that prints the stored rows around message `N` (`vcc show … --around N …`),
   * for a Hermes whose `session_search` refuses to scroll the agent's own session.
   */
  readonly shell?: string;
}

/** How many entries each section left out to stay within the budget (earlier omissions included). */
export interface OmittedCounts {
  /** Goal requests. */
  readonly requests: number;
  /** Blocked entries. */
  readonly blocked: number;
  /** Errors & Fixes entries. */
  readonly errors: number;
  /** Error Names Seen entries. */
  readonly errorNames: number;
  /** Relevant Files entries. */
  readonly files: number;
  /** Commands Run entries. */
  readonly commands: number;
  /** Lines of the Earlier Summary section. */
  readonly quotedLines: number;
  /** Messages (and earlier log lines) of which the session log kept no line. */
  readonly logEntries: number;
}

/** Counts that describe one projection; section counts are the entries shown. */
export interface ProjectionStats {
  /** Entries in the input array. */
  readonly inputMessages: number;
  /** Entries that could not be used (not an object, unknown role, …) and were skipped. */
  readonly skippedMessages: number;
  /** Tool calls whose `arguments` were not valid JSON. */
  readonly invalidArguments: number;
  /** Goal entries. */
  readonly requests: number;
  /** Blocked entries. */
  readonly blocked: number;
  /** Errors & Fixes entries. */
  readonly errors: number;
  /** Errors & Fixes entries marked fixed. */
  readonly fixes: number;
  /** Error Names Seen entries. */
  readonly errorNames: number;
  /** Relevant Files entries. */
  readonly files: number;
  /** Commands Run entries. */
  readonly commands: number;
  /** Lines quoted from an earlier summary vcc did not write. */
  readonly quotedLines: number;
  /** Lines of the session log. */
  readonly logLines: number;
  /** What each section left out. */
  readonly omitted: OmittedCounts;
  /** Whether a previous summary was merged. */
  readonly merged: boolean;
  /** Length of the body in UTF-16 code units (never above `budgetChars`). */
  readonly chars: number;
  /** The budget in characters: `budgetTokens × 4`. */
  readonly budgetChars: number;
}

/** The result of {@linkcode project}: the Markdown body and its stats. */
export interface Projection {
  /** The Markdown summary. */
  readonly body: string;
  /** Counts that describe it. */
  readonly stats: ProjectionStats;
}
