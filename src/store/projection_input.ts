import type { ProjectOptions } from "../core/mod.ts";
import type { ProjectRequest, StoreSource } from "../wire/mod.ts";
import { withSavedOutputs } from "./saved_outputs.ts";
import type { StoredWindowReader } from "./stored_window.ts";

/** What a projection request comes to once its store is read. */
export interface ProjectionInput {
  /**
   * The request's messages, one for one, each matched to its stored original where the request
   * names a store: what the references of the window's messages are read from.
   */
  readonly messages: unknown[];
  /** What to project: those messages, and the stored calls of results whose call they lack. */
  readonly window: unknown[];
  readonly options: ProjectOptions;
  /** Why the store named could not be read (the window is then projected as given). */
  readonly problem?: string;
}

/**
 * What to project for a request, the one rule `vcc serve` and `vcc project --db` share. Without a
 * store, the request as it is. With one (`state.db`, read-only): the window's messages matched to
 * their stored originals (full outputs of pruned results, original row ids) and given the whole
 * outputs Hermes saved to files in place of results too large to keep (`saved_outputs.ts`); the
 * session's newest stored summary as the previous summary — the last one Hermes kept, where what
 * Hermes passes may be older (0.19 passes its first summary again, or none once a summary sits in
 * its protected tail) —, else the one the request carries; and, unless the request names one,
 * `showCommand`'s terminal command for opening a row, for a Hermes that refuses `session_search`
 * on the agent's own session.
 */
export function projectionInput(
  request: ProjectRequest,
  reader: StoredWindowReader,
  showCommand: (store: StoreSource) => string,
): ProjectionInput {
  const { store } = request;
  if (store === undefined) {
    return { messages: request.messages, window: request.messages, options: request.options };
  }
  const read = reader.read(request.messages, store.path, store.sessionId);
  const previous = read.latestSummary || request.options.previous;
  const shell = request.options.recall?.shell ?? showCommand(store);
  return {
    messages: read.messages,
    window: withSavedOutputs(read.window, store.path),
    options: {
      ...request.options,
      ...(previous ? { previous } : {}),
      recall: { ...request.options.recall, shell },
    },
    ...(read.problem === undefined ? {} : { problem: read.problem }),
  };
}
