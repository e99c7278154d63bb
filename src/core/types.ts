import type { SectionId } from "./sections/table.ts";

/** Options that steer one projection. Every field is optional. */
export interface ProjectOptions {
  /** Hermes session id, named in the projection's header line. */
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

/** What one section of a projection shows and leaves out. */
export interface SectionCount {
  /** Entries (log: lines) shown. */
  readonly shown: number;
  /** Entries (log: messages and earlier log lines) left out, earlier projections' omissions
   * included. */
  readonly omitted: number;
}

/** Counts that describe one projection. */
export interface ProjectionStats {
  /** Entries in the input array. */
  readonly inputMessages: number;
  /** Entries that could not be used (not an object, unknown role, …) and were skipped. */
  readonly skippedMessages: number;
  /** Tool calls whose `arguments` were not valid JSON. */
  readonly invalidArguments: number;
  /** Each section's counts, by the ids of the section table. */
  readonly sections: Readonly<Record<SectionId | "log", SectionCount>>;
  /** Errors & Fixes entries marked fixed. */
  readonly fixes: number;
  /** Whether a previous summary was merged. */
  readonly merged: boolean;
  /** Length of the body in UTF-16 code units (never above `budgetChars`). */
  readonly chars: number;
  /** The budget in characters: `budgetTokens × 4`. */
  readonly budgetChars: number;
  /**
   * Characters the last line of defence had to cut to keep the body within the budget: 0 unless
   * the sizing went wrong, which the tests hold it never does.
   */
  readonly safetyCut: number;
}

/** The result of {@linkcode project}: the Markdown body and its stats. */
export interface Projection {
  /** The Markdown summary. */
  readonly body: string;
  /** Counts that describe it. */
  readonly stats: ProjectionStats;
}
