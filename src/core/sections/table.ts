/**
 * The section table: every section of a projection, in the order it appears, each described once
 * by its spec. The projector builds, merges, sizes and renders sections from it, the previous-
 * summary parser reads them back with it, and the proofs classify lines with it. Adding a section
 * means a spec and a line here.
 *
 * @module
 */
import type { ProofKind, SectionSpec } from "../section.ts";
import { BLOCKED } from "./blocked.ts";
import { COMMANDS } from "./commands.ts";
import { ERROR_NAMES } from "./error_names.ts";
import { ERRORS_FIXES } from "./errors_fixes.ts";
import { FILES } from "./files.ts";
import { GOAL } from "./goal.ts";
import { QUOTED_SUMMARY } from "./quoted_summary.ts";
import { SESSION_LOG_HEADING } from "./session_log.ts";
import { SNAPSHOT } from "./snapshot.ts";

/** The names sections are counted under in a projection's stats. */
export type SectionId =
  | "snapshot"
  | "requests"
  | "blocked"
  | "errors"
  | "errorNames"
  | "files"
  | "commands"
  | "quotedLines";

/** What readers outside the projector know of a section. */
export interface SectionDescription {
  /** The name its entries are counted under in a projection's stats. */
  readonly id: SectionId | "log";
  /** Its heading line. */
  readonly heading: string;
  /** Plural noun of its omission note. */
  readonly noun: string;
  /** How the proofs classify its lines. */
  readonly proofKind: ProofKind;
}

/**
 * One row of the table: a section's spec, reachable through `use` whatever its entry type (the
 * entry type stays the spec's own), with the facts the table's readers need without it.
 */
export interface SectionRow extends SectionDescription {
  readonly id: SectionId;
  /** Runs `body` with the section's spec. */
  use<R>(body: <E>(spec: SectionSpec<E>) => R): R;
}

function row<E>(id: SectionId, spec: SectionSpec<E>): SectionRow {
  return {
    id,
    heading: spec.heading,
    noun: spec.noun,
    proofKind: spec.proofKind,
    use: (body) => body(spec),
  };
}

/** The structured sections, in the order a projection shows them. */
export const SECTIONS: readonly SectionRow[] = [
  row("snapshot", SNAPSHOT),
  row("requests", GOAL),
  row("blocked", BLOCKED),
  row("errors", ERRORS_FIXES),
  row("errorNames", ERROR_NAMES),
  row("files", FILES),
  row("commands", COMMANDS),
  row("quotedLines", QUOTED_SUMMARY),
];

/** The session log, which closes every projection: its heading, noun and proof kind. */
export const LOG_SECTION: SectionDescription = {
  id: "log",
  heading: SESSION_LOG_HEADING,
  noun: "log entries",
  proofKind: "log",
};

/** Every section, the session log last, as readers outside the projector see them. */
export const SECTION_DESCRIPTIONS: readonly SectionDescription[] = [
  ...SECTIONS.map(({ id, heading, noun, proofKind }) => ({ id, heading, noun, proofKind })),
  LOG_SECTION,
];

/** Every heading a projection may contain, in order. */
export const HEADINGS: readonly string[] = [
  ...SECTIONS.map((section) => section.heading),
  LOG_SECTION.heading,
];
