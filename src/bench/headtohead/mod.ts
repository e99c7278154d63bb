/**
 * The head-to-head against the stock summary on a local model: freeze windows, summarise them
 * with the stock-style prompt and with vcc, ask rule-generated questions under each context, and
 * report window-level paired statistics.
 *
 * @module
 */
export { type AskCounts, askQuestions } from "./ask.ts";
export { chatCompletion, type ChatServer } from "./chat_client.ts";
export { freezeWindows } from "./freeze.ts";
export { comparePaired, type PairedComparison, type PairedScores } from "./paired_stats.ts";
export { isCorrect, type Question, questionsFor } from "./questions.ts";
export { CAVEATS, type ContextScore, type HeadToHeadReport, headToHeadReport } from "./report.ts";
export { type SummariseCounts, summariseStock, summariseVariant } from "./summarise.ts";
export { type WindowFacts, windowFacts } from "./window_facts.ts";
export { FULL, HeadToHeadWorkspace, STOCK } from "./workspace.ts";
