/**
 * Hermes's compaction rules reproduced outside Hermes, as far as they are documented: where it
 * cuts a transcript, how it prunes old tool results, how it stores summaries, and the sizes that
 * follow from its settings. Pure: no IO.
 *
 * @module
 */
export { type CompactionCut, cutForCompaction, type MessageRow } from "./cut.ts";
export { hermesTokens, IMAGE_TOKENS, pythonNumberText, pythonTextLength } from "./hermes_tokens.ts";
export { jsonObject } from "./json_object.ts";
export { MIN_PRUNE_CHARS, pruneToolResults } from "./prune.ts";
export { replayCompactions, type ReplayedCompaction } from "./replay.ts";
export {
  type BudgetSettings,
  type CompactionSettings,
  compactionThreshold,
  DEFAULT_BUDGET_SETTINGS,
  DEFAULT_CONTEXT_TOKENS,
  projectionBudget,
  roughTokens,
  tailTokenBudget,
  VCC_SETTINGS,
  type VccSetting,
} from "./settings.ts";
export { CLEARED_STUB, DUPLICATE_STUB, groupDigits, isPruningStub, pruningStub } from "./stubs.ts";
export {
  isSummaryRow,
  LEGACY_SUMMARY_PREFIX,
  SUMMARY_END_MARKER,
  SUMMARY_PREFIX_START,
  summaryBody,
  summaryRowText,
} from "./summary_rows.ts";
export { type CompactionPreview, previewCompaction, type PreviewSettings } from "./preview.ts";
