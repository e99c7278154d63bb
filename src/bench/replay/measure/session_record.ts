/**
 * The record of one session as its requests arrive: for each main-loop request its size, what it
 * costs cache-priced after the one before, whether a compaction happened since that one (a new
 * summary in the request, a summary call, a projection in Hermes's log, rows archived in the
 * store), whether it broke the prefix outside a compaction, its broken tool-call pairs, and the
 * state.db rows Hermes rewrote since outside a compaction (the store is read, read-only, as each
 * request arrives, while Hermes waits for the answer).
 *
 * @module
 */
import { type ChatRequest, messageText, requestMessages } from "../model/chat_request.ts";
import type { RequestKind } from "../model/request_kind.ts";
import { priceRequest } from "./cache_cost.ts";
import { requestText } from "./request_text.ts";
import {
  archivedRows,
  readSnapshot,
  type RewrittenRow,
  rewrittenRows,
  type StoreSnapshot,
} from "./store_snapshot.ts";
import { type PairingViolation, pairingViolations } from "./tool_pairing.ts";

/** How every Hermes compaction summary begins. */
export const SUMMARY_MARKER = "[CONTEXT COMPACTION";
/** The line the vcc plugin logs for each projection. */
export const PROJECTION_LINE = /vcc: projected (\d+) turns into (\d+) chars in (\d+) ms/g;

/** One main-loop request. */
export interface MainRequest {
  /** Its place among all requests of the session (0-based). */
  readonly exchange: number;
  readonly messages: number;
  readonly tokens: number;
  readonly cachedTokens: number;
  readonly cost: number;
  /** A compaction happened since the main request before it. */
  readonly compaction: boolean;
  /** Its text does not extend the one before, and no compaction explains it. */
  readonly prefixBreak: boolean;
  readonly pairing: readonly PairingViolation[];
  /** Rows rewritten since the main request before it, outside a compaction. */
  readonly rewritten: readonly RewrittenRow[];
}

/** One summary request and the stand-in's answer. */
export interface SummaryCall {
  readonly exchange: number;
  readonly promptChars: number;
  readonly answerChars: number;
  readonly tokens: number;
  readonly cost: number;
}

/** Where the recorder reads Hermes's store and log. */
export interface RecordPaths {
  /** The run's directory, replaced in request texts. */
  readonly root: string;
  readonly store: string;
  readonly log: string;
}

function summaryText(request: ChatRequest): string {
  return requestMessages(request).map(messageText).filter((text) => text.includes(SUMMARY_MARKER))
    .join("\n\u0000\n");
}

function projectionCount(log: string): number {
  try {
    return [...Deno.readTextFileSync(log).matchAll(PROJECTION_LINE)].length;
  } catch {
    return 0;
  }
}

/** Records one session; feed it every request as it arrives, then {@linkcode finish} it. */
export class SessionRecord {
  readonly #paths: RecordPaths;
  readonly main: MainRequest[] = [];
  readonly summaries: SummaryCall[] = [];
  readonly kinds: Record<RequestKind, number> = {
    turn: 0,
    subagent: 0,
    summary: 0,
    title: 0,
    other: 0,
  };
  /** Rows rewritten after the last main request (at the end of the last turn). */
  finalRewritten: readonly RewrittenRow[] = [];
  /** The last main request, as sent. */
  finalRequest: ChatRequest | undefined;
  #exchanges = 0;
  #previousText = "";
  #previousSummary = "";
  #previousSummaryText = "";
  #snapshot: StoreSnapshot = new Map();
  #summariesSince = 0;
  #projections = 0;

  constructor(paths: RecordPaths) {
    this.#paths = paths;
  }

  /** Notes a request of `kind` (answered with `answer` when it is a summary request). */
  request(kind: RequestKind, request: ChatRequest, answer = ""): void {
    const exchange = this.#exchanges++;
    this.kinds[kind] += 1;
    if (kind === "turn") this.#main(exchange, request);
    if (kind === "summary") this.#summary(exchange, request, answer);
  }

  /** Compares the store after the last turn with its state at the last main request. */
  finish(): void {
    const snapshot = readSnapshot(this.#paths.store);
    if (!this.#compactedSince(snapshot, false)) {
      this.finalRewritten = rewrittenRows(this.#snapshot, snapshot);
    }
  }

  #compactedSince(snapshot: StoreSnapshot, summaryChanged: boolean): boolean {
    const projections = projectionCount(this.#paths.log);
    const compacted = summaryChanged || this.#summariesSince > 0 ||
      projections > this.#projections || archivedRows(this.#snapshot, snapshot);
    this.#projections = projections;
    this.#summariesSince = 0;
    return compacted;
  }

  #main(exchange: number, request: ChatRequest): void {
    const text = requestText(request, this.#paths.root);
    const summary = summaryText(request);
    const snapshot = readSnapshot(this.#paths.store);
    const first = this.main.length === 0;
    const compaction = !first && this.#compactedSince(snapshot, summary !== this.#previousSummary);
    const priced = priceRequest(this.#previousText, text);
    this.main.push({
      exchange,
      messages: requestMessages(request).length,
      ...priced,
      compaction,
      prefixBreak: !first && !compaction && !text.startsWith(this.#previousText),
      pairing: pairingViolations(requestMessages(request)),
      rewritten: compaction ? [] : rewrittenRows(this.#snapshot, snapshot),
    });
    this.#previousText = text;
    this.#previousSummary = summary;
    this.#snapshot = snapshot;
    this.finalRequest = request;
  }

  #summary(exchange: number, request: ChatRequest, answer: string): void {
    this.#summariesSince += 1;
    const text = requestText(request, this.#paths.root);
    const priced = priceRequest(this.#previousSummaryText, text);
    this.#previousSummaryText = text;
    const prompt = requestMessages(request).map(messageText).join("\n");
    this.summaries.push({
      exchange,
      promptChars: prompt.length,
      answerChars: answer.length,
      tokens: priced.tokens,
      cost: priced.cost,
    });
  }
}
