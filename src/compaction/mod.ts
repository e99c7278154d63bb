/**
 * Hermes's compaction rules reproduced outside Hermes, as far as they are documented: where it
 * cuts a transcript, how it prunes old tool results, how it stores summaries, and the sizes that
 * follow from its settings. Pure: no IO.
 *
 * @module
 */
export { type CompactionCut, cutForCompaction, type MessageRow } from "./cut.ts";
export { hermesTokens, IMAGE_TOKENS, pythonNumberText, pythonTextLength } from "./hermes_tokens.ts";
export {
  HERMES_0_19,
  HERMES_0_22,
  HERMES_RULES,
  type HermesRules,
  hermesRules,
} from "./hermes_rules.ts";
export { jsonObject } from "./json_object.ts";
export { MIN_PRUNE_CHARS, pruneToolResults, pruneTranscript } from "./prune.ts";
export { replayCompactions, type ReplayedCompaction } from "./replay.ts";
export {
  type BudgetSettings,
  type CompactionSettings,
  DEFAULT_BUDGET_SETTINGS,
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_PROTECT_FIRST_N,
  DEFAULT_PROTECT_LAST_N,
  projectionBudget,
  roughTokens,
  VCC_SETTINGS,
  type VccSetting,
} from "./settings.ts";
export { groupDigits, isPruningStub, pruningStub } from "./stubs.ts";
export {
  type HandoffKind,
  handoffKind,
  handoffRemainder,
  isSummaryRow,
  summaryBody,
  summaryRowText,
} from "./summary_rows.ts";
export {
  type CompactionPreview,
  previewCompaction,
  type PreviewSettings,
  type WindowReading,
} from "./preview.ts";
