/**
 * The recall bench: an oracle lists each window's facts (commands with their exit codes, files,
 * raised error names, requests) by rules independent of the projector, and each projection is
 * scored on what it kept, what it says happened, and what it says it omitted.
 *
 * @module
 */
export {
  type CommandFact,
  type CommandRun,
  type ErrorNameFact,
  type FileFact,
  type FileOperation,
  type WindowFacts,
  windowFacts,
} from "./oracle.ts";
export { raisedNames } from "./raised_names.ts";
export { foldText, showsText } from "./display_match.ts";
export {
  type CallClaimLine,
  type CommandLine,
  type FileLine,
  type ProjectionText,
  readProjection,
  type SectionText,
  type StatedOutcome,
} from "./projection_text.ts";
export {
  type AmbiguousLine,
  type CommandScore,
  type FactScore,
  type FileScore,
  type OutcomeSection,
  scoreWindow,
  type WindowScore,
  WRONG_KINDS,
  type WrongKind,
  type WrongLine,
  type WrongReason,
} from "./score.ts";
export {
  type AmbiguousFinding,
  type CorpusUnread,
  type ExactCounts,
  RECALL_BUDGETS,
  type RecallCorpus,
  type RecallRun,
  type RecallTotals,
  type RecallWindow,
  runRecall,
  type WrongFinding,
} from "./run.ts";
