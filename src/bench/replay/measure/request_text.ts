/**
 * A request as one text, for comparing requests with each other: the offered tools, then each
 * message as Hermes sent it (its JSON, keys in Hermes's order), one per line. What differs from
 * run to run without the story being different (the run's directory, Hermes's session and job
 * ids, process ids, durations) is replaced by fixed placeholders, so the same story gives the
 * same text on every run.
 *
 * @module
 */
import type { ChatRequest } from "../model/chat_request.ts";

/** What {@linkcode requestText} replaces, in order: a pattern and its placeholder. */
const VOLATILE: readonly [RegExp, string][] = [
  [/\b\d{8}_\d{6}_[0-9a-f]{6}\b/g, "<session>"],
  [/\bproc_[0-9a-f]{6,}\b/g, "proc_<id>"],
  [/\bdeleg_[0-9a-f]{6,}\b/g, "deleg_<id>"],
  // Keys inside JSON text, whatever depth of escaping their quotes have.
  [/(pid\\*":\s*)\d+/g, "$1<pid>"],
  [/(uptime_seconds\\*":\s*)\d+/g, "$1<s>"],
  [/((?:total_)?duration_seconds\\*":\s*)[\d.]+/g, "$1<s>"],
  [/\bin \d+\.\d+s\b/g, "in <s>s"],
  [/(\\+t)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [+-]\d{4}/g, "$1<mtime>"],
];

/** Replaces `root` (the run's directory) and the volatile values of {@linkcode VOLATILE}. */
export function normalized(text: string, root: string): string {
  let out = root === "" ? text : text.replaceAll(root, "<run>");
  for (const [pattern, placeholder] of VOLATILE) out = out.replace(pattern, placeholder);
  return out;
}

/** The request's tools and messages as one normalized text. */
export function requestText(request: ChatRequest, root: string): string {
  const lines = [JSON.stringify(request.tools ?? [])];
  for (const message of request.messages ?? []) lines.push(JSON.stringify(message));
  return normalized(lines.join("\n"), root);
}
