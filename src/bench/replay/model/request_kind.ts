/**
 * What a request to the scripted model is, told by its messages (never by its order, as Hermes
 * sends its title, summary and review requests to the same endpoint as the agent's turns).
 *
 * @module
 */
import { type ChatRequest, messageText, requestMessages } from "./chat_request.ts";

/**
 * - `turn`: a step of the agent loop (it offers tools);
 * - `subagent`: a step of a sub-agent the story delegated to (it offers tools, and its first user
 *   message begins with the delegated goal; a summary that quotes the goal begins otherwise);
 * - `summary`: Hermes's compressor asking for a compaction summary;
 * - `title`: Hermes naming the session;
 * - `other`: anything else (a background review, an unknown auxiliary task).
 */
export type RequestKind = "turn" | "subagent" | "summary" | "title" | "other";

/** Words only Hermes's summary prompt has (its fresh and its iterative form). */
const SUMMARY_MARKERS = [
  "TURNS TO SUMMARIZE:",
  "NEW TURNS TO INCORPORATE:",
  "You are a summarization agent",
  "Create a structured checkpoint summary",
  "You are updating a context compaction summary",
];
const TITLE_MARKER = "You name chat sessions";

/** The kind of `request`; `delegatedGoals` are the goals the story hands to sub-agents. */
export function requestKind(request: ChatRequest, delegatedGoals: readonly string[]): RequestKind {
  const messages = requestMessages(request);
  const texts = messages.map(messageText);
  if (texts.some((text) => SUMMARY_MARKERS.some((marker) => text.includes(marker)))) {
    return "summary";
  }
  if ((request.tools ?? []).length > 0) {
    const first = messages.findIndex((message) => message.role === "user");
    const opening = first < 0 ? "" : texts[first]!;
    return delegatedGoals.some((goal) => opening.startsWith(goal)) ? "subagent" : "turn";
  }
  const system = messages.filter((message) => message.role === "system").map(messageText);
  if (system.some((text) => text.includes(TITLE_MARKER))) return "title";
  return "other";
}
