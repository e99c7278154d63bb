/**
 * The section table: every section of a projection, in the order it appears, each described once
 * — its id (what its entries are counted under in the stats and how the proofs name its lines),
 * its spec, and its part of the budget. The projector builds, merges, sizes and renders sections
 * from it, the previous-summary parser reads them back with it, the stats and the proofs take
 * their names from it. Adding a section means a spec and a row here.
 *
 * How the budget is split: after the header, each section (the session log among them) may fill
 * its `share` of the room; room a section leaves unused goes to the others in `rank` order, lowest
 * first. The shares add up to 1, and the ranks are 0…n-1 (the tests hold the table to both).
 *
 * @module
 */
import type { SectionSpec } from "../section.ts";
import { BLOCKED } from "./blocked.ts";
import { COMMANDS } from "./commands.ts";
import { DECISIONS } from "./decisions.ts";
import { ERRORS_SEEN } from "./errors_seen.ts";
import { ERRORS_FIXES } from "./errors_fixes.ts";
import { FILES } from "./files.ts";
import { GOAL } from "./goal.ts";
import { OUTPUT_FACTS } from "./output_facts.ts";
import { QUOTED_SUMMARY } from "./quoted_summary.ts";
import { SESSION_LOG_HEADING, SESSION_LOG_WORDS } from "./session_log.ts";
import { SNAPSHOT } from "./snapshot.ts";

/** A section's part of the budget. */
export interface BudgetPart {
  /** The share of the room after the header it may fill before leftover room is handed out. */
  readonly share: number;
  /** Its place when leftover room is handed out (lowest first). */
  readonly rank: number;
}

/** What readers outside the projector know of a section. */
export interface SectionDescription<Id extends string = string> extends BudgetPart {
  /** What its entries are counted under in a projection's stats, and how proofs name its lines. */
  readonly id: Id;
  /** Its heading line. */
  readonly heading: string;
  /** Headings earlier releases gave it, read back as this section. */
  readonly formerHeadings: readonly string[];
  /** Plural noun of its omission note. */
  readonly noun: string;
  /** The words its lines write themselves, besides outcome words and what they quote. */
  readonly ownWords: string;
}

/**
 * One structured row of the table: a section's spec, reachable through `use` whatever its entry
 * type (the entry type stays the spec's own), with the facts the table's readers need without it.
 */
export interface SectionRow<Id extends string = string> extends SectionDescription<Id> {
  /** Runs `body` with the section's spec. */
  use<R>(body: <E>(spec: SectionSpec<E>) => R): R;
}

/**
 * Every section in the order a projection shows it, the session log last, with its part of the
 * budget: the one list of the sections' ids, order and split.
 */
export const SECTION_LAYOUT = [
  { id: "snapshot", share: 0.07, rank: 0 },
  { id: "requests", share: 0.08, rank: 1 },
  { id: "decisions", share: 0.05, rank: 5 },
  { id: "blocked", share: 0.05, rank: 2 },
  { id: "errors", share: 0.06, rank: 6 },
  { id: "errorsSeen", share: 0.05, rank: 7 },
  { id: "outputFacts", share: 0.04, rank: 8 },
  { id: "files", share: 0.06, rank: 4 },
  { id: "commands", share: 0.48, rank: 3 },
  { id: "quotedLines", share: 0.02, rank: 9 },
  { id: "log", share: 0.04, rank: 10 },
] as const;

/** The ids of the structured sections (every section but the session log). */
export type SectionId = Exclude<(typeof SECTION_LAYOUT)[number]["id"], "log">;

// The spec of each structured section; the type makes it name every id once.
// deno-lint-ignore no-explicit-any
const SPECS: { readonly [Id in SectionId]: SectionSpec<any> } = {
  snapshot: SNAPSHOT,
  requests: GOAL,
  decisions: DECISIONS,
  blocked: BLOCKED,
  errors: ERRORS_FIXES,
  errorsSeen: ERRORS_SEEN,
  outputFacts: OUTPUT_FACTS,
  files: FILES,
  commands: COMMANDS,
  quotedLines: QUOTED_SUMMARY,
};

/** The structured sections, in the order a projection shows them. */
export const SECTIONS: readonly SectionRow<SectionId>[] = SECTION_LAYOUT.flatMap((part) => {
  if (part.id === "log") return [];
  const spec = SPECS[part.id];
  const { heading, formerHeadings = [], noun, ownWords } = spec;
  return [{ ...part, heading, formerHeadings, noun, ownWords, use: (body) => body(spec) }];
});

const LOG_PART = SECTION_LAYOUT.find((part) => part.id === "log") as BudgetPart;

/** The session log, which closes every projection. */
export const LOG_SECTION: SectionDescription<"log"> = {
  id: "log",
  heading: SESSION_LOG_HEADING,
  formerHeadings: [],
  noun: "log entries",
  ownWords: SESSION_LOG_WORDS,
  share: LOG_PART.share,
  rank: LOG_PART.rank,
};

/** Every section, the session log last, as readers outside the projector see them. */
export const SECTION_DESCRIPTIONS: readonly SectionDescription<SectionId | "log">[] = [
  ...SECTIONS.map(({ id, heading, formerHeadings, noun, ownWords, share, rank }) => ({
    id,
    heading,
    formerHeadings,
    noun,
    ownWords,
    share,
    rank,
  })),
  LOG_SECTION,
];

/** Every heading a projection may contain, in order. */
export const HEADINGS: readonly string[] = SECTION_DESCRIPTIONS.map((section) => section.heading);
