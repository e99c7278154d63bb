import { renderFullContext } from "./_full_context.ts";

/** The stock compressor serialises at most this many characters of the window. */
export const STOCK_INPUT_CHARS = 160_000;

/**
 * A summary request in the spirit of Hermes's stock compressor: the serialised window (capped
 * like Hermes's, keeping its start and end) and a fixed structure to fill in. It is this bench's
 * own wording, not Hermes's prompt.
 */
export function stockSummaryPrompt(rows: readonly unknown[]): string {
  const full = renderFullContext(rows);
  const serialised = full.length <= STOCK_INPUT_CHARS
    ? full
    : `${full.slice(0, STOCK_INPUT_CHARS * 0.6)}\n…[middle omitted]…\n${
      full.slice(full.length - STOCK_INPUT_CHARS * 0.4)
    }`;
  return [
    "Summarise the following part of a coding agent's conversation so the agent can continue",
    "without it. Use these headings: Goal; Constraints and Preferences; Progress (Done, In",
    "Progress, Blocked); Key Decisions; Relevant Files; Next Steps; Critical Context. Keep exact",
    "commands, file paths, exit codes and error messages.",
    "",
    "CONVERSATION:",
    serialised,
  ].join("\n");
}
