/**
 * Which planted facts a final request keeps. A fact counts only where none of its source messages
 * is still in the request as it was stored (the same role and text; for a call, the same id and
 * arguments): a message Hermes kept verbatim keeps its facts whatever the engine does. A fact is
 * kept when every probe (its fixed strings, and those read from the stored rows, as a commit's
 * hash) occurs in the request's searchable text.
 *
 * @module
 */
import {
  type ChatMessage,
  type ChatRequest,
  messageText,
  requestMessages,
} from "../model/chat_request.ts";
import type { FactSource, PlantedFact, ProbeCategory } from "../story/fact.ts";
import { callId, placedSteps, type Story } from "../story/story.ts";
import { searchableText } from "./request_search.ts";
import { originalCall, originalResult, type StoredRow } from "./stored_rows.ts";

/** One fact's outcome in one final request. */
export interface FactOutcome {
  readonly id: string;
  readonly category: ProbeCategory;
  /** No source message is verbatim in the request. */
  readonly compacted: boolean;
  readonly kept: boolean;
  /** The probes the request lacks. */
  readonly missing: readonly string[];
}

function verbatim(
  source: FactSource,
  story: Story,
  messages: readonly ChatMessage[],
  rows: readonly StoredRow[],
): boolean {
  const steps = placedSteps(story);
  switch (source.kind) {
    case "user":
      return messages.some((m) =>
        m.role === "user" && messageText(m) === story.turns[source.turn]!.prompt
      );
    case "closing": {
      const closing = story.turns[source.turn]!.closing;
      return messages.some((m) =>
        m.role === "assistant" && (m.tool_calls ?? []).length === 0 && messageText(m) === closing
      );
    }
    case "note":
    case "call": {
      const id = callId(source.step);
      const stored = originalCall(rows, id);
      const args = stored?.calls.find((call) => call.id === id)?.arguments;
      return messages.some((m) =>
        m.role === "assistant" &&
        (source.kind === "call" || messageText(m) === steps[source.step]!.note) &&
        (m.tool_calls ?? []).some((call) => call.id === id && call.function?.arguments === args)
      );
    }
    case "result": {
      const id = callId(source.step);
      const stored = originalResult(rows, id)?.content;
      return messages.some((m) =>
        m.role === "tool" && m.tool_call_id === id && messageText(m) === stored
      );
    }
  }
}

/** The probes of `fact`, those read from the store resolved (a missing one reads `(absent)`). */
export function factProbes(fact: PlantedFact, rows: readonly StoredRow[]): string[] {
  const recorded = (fact.recordedProbes ?? []).map((probe) => {
    const match = probe.pattern.exec(originalResult(rows, callId(probe.step))?.content ?? "");
    return match ? match[1] ?? match[0] : "(absent)";
  });
  return [...fact.probes, ...recorded];
}

/** The outcome of every fact of `story` in `request`, given the session's stored rows. */
export function checkFacts(
  story: Story,
  request: ChatRequest,
  rows: readonly StoredRow[],
): FactOutcome[] {
  const messages = requestMessages(request);
  const text = searchableText(request);
  return story.facts.map((fact) => {
    const missing = factProbes(fact, rows).filter((probe) => !text.includes(probe));
    return {
      id: fact.id,
      category: fact.category,
      compacted: !fact.sources.some((source) => verbatim(source, story, messages, rows)),
      kept: missing.length === 0,
      missing,
    };
  });
}
