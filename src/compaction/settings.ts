/**
 * Hermes's compaction settings and the sizes derived from them (hermes-internals §2.1, §2.3):
 * where it cuts (the tail sizes differ by generation: `hermes_rules.ts`), when it compacts, and the
 * projection budget the vcc engine uses.
 *
 * @module
 */
// Imported as text, as the plugin's file list imports it: Deno loads one file with one type.
import settingsJson from "../../plugin/settings.json" with { type: "text" };
import type { HermesRules } from "./hermes_rules.ts";

/** Settings that decide where Hermes cuts a transcript. Defaults are Hermes's. */
export interface CompactionSettings {
  /** The main model's context window in tokens. */
  readonly contextTokens: number;
  /** Messages pinned at the start until the session's first compaction (default 3). */
  readonly protectFirstN?: number;
  /** The tail keeps at least this many messages, 8 at most (default 20). */
  readonly protectLastN?: number;
  /** The rules of the Hermes generation that compacts (default 0.22). */
  readonly rules?: HermesRules;
  /**
   * Whether the session has compacted before, which lets the head decay to nothing (default:
   * whether the transcript holds a summary row).
   */
  readonly compactedBefore?: boolean;
}

/** Hermes's default `protect_first_n`. */
export const DEFAULT_PROTECT_FIRST_N = 3;

/** Hermes's default `protect_last_n`. */
export const DEFAULT_PROTECT_LAST_N = 20;

/** Context window assumed when none is given: 128K tokens. */
export const DEFAULT_CONTEXT_TOKENS = 128_000;

/**
 * A row's size in tokens as its JSON length / 4, close to the estimates Hermes cuts and triggers
 * with. The projection budget uses Hermes's own count of the window instead ({@linkcode
 * hermesTokens} in `hermes_tokens.ts`).
 */
export function roughTokens(row: unknown): number {
  return Math.ceil((JSON.stringify(row)?.length ?? 0) / 4);
}

/** The vcc engine's budget settings (`context.vcc`); absent ones take their defaults. */
export interface BudgetSettings {
  readonly budgetRatio?: number;
  readonly minBudgetTokens?: number;
  readonly maxBudgetTokens?: number;
}

/** One `context.vcc` key as `plugin/settings.json` describes it. */
export interface VccSetting {
  readonly type: "int" | "float" | "bool" | "str";
  readonly default: number | boolean | string | null;
  readonly low?: number;
  readonly high?: number;
}

/** Every `context.vcc` key with its type, default and range: `plugin/settings.json`, the file the
 * plugin reads its settings with, so both sides share one set of defaults. */
export const VCC_SETTINGS: Readonly<Record<string, VccSetting>> = JSON.parse(settingsJson);

/** The budget settings' defaults, from {@linkcode VCC_SETTINGS}. */
export const DEFAULT_BUDGET_SETTINGS: Required<BudgetSettings> = {
  budgetRatio: VCC_SETTINGS.budget_ratio!.default as number,
  minBudgetTokens: VCC_SETTINGS.min_budget_tokens!.default as number,
  maxBudgetTokens: VCC_SETTINGS.max_budget_tokens!.default as number,
};

/**
 * The projection budget for a window: the smallest of `budget_ratio` × context window, Hermes's
 * content-scaled summary budget and `max_budget_tokens`, but at least `min_budget_tokens`.
 */
export function projectionBudget(
  contextTokens: number,
  windowTokens: number,
  settings: BudgetSettings = {},
): number {
  const { budgetRatio, minBudgetTokens, maxBudgetTokens } = {
    ...DEFAULT_BUDGET_SETTINGS,
    ...settings,
  };
  const hermes = Math.max(
    2000,
    Math.min(Math.floor(windowTokens * 0.2), Math.min(Math.floor(contextTokens * 0.05), 10_000)),
  );
  const ratio = Math.floor(budgetRatio * contextTokens);
  return Math.max(minBudgetTokens, Math.min(ratio, hermes, maxBudgetTokens));
}
