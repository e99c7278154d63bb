/**
 * A fact the story plants for the replay bench to probe: where it was said, what kind of
 * knowledge it is, and the exact strings whose presence in a request shows it was kept.
 *
 * @module
 */

/** The kinds of knowledge the bench probes, in the order its tables show them. */
export const PROBE_CATEGORIES = ["recall", "artifact", "continuation", "decision"] as const;

/**
 * - `recall`: a detail that was only ever in a tool's output (an error line, a tally, an id);
 * - `artifact`: a thing the session made or must find again (a path, a commit, a diff's blobs);
 * - `continuation`: what is left to do, as the user or the assistant put it;
 * - `decision`: a choice or a constraint the user or the assistant stated.
 */
export type ProbeCategory = typeof PROBE_CATEGORIES[number];

/** The message of the story a fact was planted in. */
export type FactSource =
  /** The user's message that opens turn `turn` (0-based). */
  | { readonly kind: "user"; readonly turn: number }
  /** The assistant text that accompanies the call of step `step`. */
  | { readonly kind: "note"; readonly step: number }
  /** The result of step `step`'s call. */
  | { readonly kind: "result"; readonly step: number }
  /** The arguments of step `step`'s call. */
  | { readonly kind: "call"; readonly step: number }
  /** The assistant's reply that ends turn `turn`. */
  | { readonly kind: "closing"; readonly turn: number };

/** A probe read from the record: the first match of `pattern` in step `step`'s stored result. */
export interface RecordedProbe {
  readonly step: number;
  readonly pattern: RegExp;
}

/** One planted fact. */
export interface PlantedFact {
  /** Stable name within the story, e.g. `sync-log-checksum`. */
  readonly id: string;
  readonly category: ProbeCategory;
  /** What the fact is, in a few words (no transcript text). */
  readonly description: string;
  /** Every one of these must occur in a request for the fact to count as kept. */
  readonly probes: readonly string[];
  /**
   * Probes only the run can tell (a commit's hash, a diff's blob ids), read from the stored
   * result; they join `probes`.
   */
  readonly recordedProbes?: readonly RecordedProbe[];
  /** Where the fact was said first, then every other message of the story that repeats it. */
  readonly sources: readonly FactSource[];
}
