import { project, type Projection, type ProjectOptions } from "../core/mod.ts";
import { type CompactionCut, cutForCompaction, type MessageRow } from "./cut.ts";
import { hermesTokens } from "./hermes_tokens.ts";
import { type BudgetSettings, type CompactionSettings, projectionBudget } from "./settings.ts";

/** What a compaction of a live transcript would hand to vcc, and what vcc would answer. */
export interface CompactionPreview {
  readonly cut: CompactionCut;
  readonly windowTokens: number;
  readonly budgetTokens: number;
  readonly projection: Projection;
}

/** Settings of a preview: where Hermes cuts, the vcc budget, and the session and focus. */
export interface PreviewSettings extends CompactionSettings, BudgetSettings {
  readonly sessionId?: string;
  /** Fixed budget in tokens instead of the one derived from the settings. */
  readonly budgetTokens?: number;
  readonly focus?: string;
}

/**
 * What is projected for a window Hermes would hand over, and with which options: the window and
 * options as they are, or as the engine reads them against its store before projecting.
 */
export type WindowReading = (
  window: unknown[],
  options: ProjectOptions,
) => { readonly window: unknown[]; readonly options: ProjectOptions };

/**
 * The summary body vcc would produce if the live transcript `rows` (oldest first) compacted now:
 * Hermes's cut and pruning ({@linkcode cutForCompaction}), the earlier summaries Hermes passes
 * merged as the previous projection, and the budget the engine derives from the settings; the
 * window and those options are projected as `read` gives them (as they are by default).
 * Undefined when Hermes would find nothing to compact.
 */
export function previewCompaction(
  rows: readonly MessageRow[],
  settings: PreviewSettings,
  read: WindowReading = (window, options) => ({ window, options }),
): CompactionPreview | undefined {
  const cut = cutForCompaction(rows, settings);
  if (!cut) return undefined;
  const windowTokens = hermesTokens(cut.window);
  const budgetTokens = settings.budgetTokens ??
    projectionBudget(settings.contextTokens, windowTokens, settings);
  const { window, options } = read([...cut.window], {
    budgetTokens,
    ...(settings.sessionId === undefined ? {} : { sessionId: settings.sessionId }),
    ...(cut.previous === undefined ? {} : { previous: cut.previous }),
    ...(settings.focus === undefined ? {} : { focus: settings.focus }),
  });
  return { cut, windowTokens, budgetTokens, projection: project(window, options) };
}
