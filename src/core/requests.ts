import {
  MERGED_SUMMARY_DELIMITER,
  RESTATEMENT_START,
  SCAFFOLDING_TURN_PREFIXES,
  SYNTHETIC_USER_PREFIXES,
} from "./hermes.ts";
import type { Row } from "./message.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "./ref.ts";
import { sanitizeInline } from "./sanitize.ts";

// User rows that Hermes or the gateway writes itself; they are not requests from the user. (Its
// restatement of an unfinished request is the request: it is read past its marker.)
const SYNTHETIC_PREFIXES = [
  ...SYNTHETIC_USER_PREFIXES,
  MERGED_SUMMARY_DELIMITER.split(" —")[0] as string,
];
// Short replies that confirm, approve or thank rather than ask for anything: a few of these words
// and phrases in a row (`yes, approve it`, `ok go ahead`, `thanks!`), nothing else.
const ASSENT = [
  "ok(?:ay)?",
  "k",
  "y(?:es|ep|eah)?",
  "sure",
  "right",
  "fine",
  "great",
  "good",
  "nice",
  "perfect",
  "cool",
  "please",
  "thanks?",
  "thank you",
  "ty",
  "sounds good",
  "lgtm",
  "go(?: ahead| on)?",
  "continue",
  "proceed",
  "do (?:it|that|so)",
  "approved?(?: (?:it|that|this))?",
  "confirm(?:ed)?",
  "allow(?: (?:it|that|this))?",
];
const ACKNOWLEDGEMENT = new RegExp(`^(?:(?:${ASSENT.join("|")})(?:[\\s.!,]+|$)){1,6}$`, "i");

// How Hermes (0.22) restates an unfinished request after a compaction, ahead of its words (its
// bracket as written, or as the sanitiser defuses it).
const RESTATEMENT = new RegExp(
  `^[[⟦]${RegExp.escape(RESTATEMENT_START.slice(1))}\\b[^\\]\\n]*\\]\\s*`,
);

/** Whether a row is Hermes's restatement of an unfinished request. */
export function isRestatement(row: Row): boolean {
  return RESTATEMENT.test(row.text.trim());
}

/** A request's words without Hermes's restatement marker before them. */
export function withoutRestatement(text: string): string {
  return text.replace(RESTATEMENT, "");
}

/**
 * Whether a row is something the user asked for: not synthetic, not empty, not a bare "ok". The
 * request Hermes (0.22) restates after a compaction is one: after the first compaction it is the
 * only copy of a request that sat in Hermes's protected head.
 */
export function isUserRequest(row: Row): boolean {
  if (row.role !== "user") return false;
  const text = withoutRestatement(row.text.trim()).trim();
  return text !== "" && !SYNTHETIC_PREFIXES.some((prefix) => text.startsWith(prefix)) &&
    !ACKNOWLEDGEMENT.test(text);
}

/**
 * Whether a row is a turn of the user's as Hermes counts them for its provenance check: a user row
 * with text that is none of the notes Hermes writes itself (a bare "ok" counts).
 */
export function isUserTurn(row: Row): boolean {
  const text = row.text.trim();
  return row.role === "user" && text !== "" &&
    ![...SYNTHETIC_PREFIXES, ...SCAFFOLDING_TURN_PREFIXES].some((prefix) =>
      text.startsWith(prefix)
    );
}

/** A request as Goal and the snapshot quote it: the row it was made in and its sanitised text. */
export interface RequestEntry {
  readonly ref?: Ref;
  readonly text: string;
}

/** The request a row makes (a restated one's own words). */
export function requestOf(row: Row): RequestEntry {
  return { ref: row.ref, text: sanitizeInline(withoutRestatement(row.text.trim())) };
}

/** How many leading characters name a request that was never saved; lines never show fewer. */
export const REQUEST_KEY_CHARS = 60;

/**
 * A request's identity: the stored row it was made in; for one never saved, its first words (two
 * unsaved requests with different words stay apart).
 */
export function requestKey(entry: RequestEntry): string {
  return entry.ref?.kind === "row" ? `#${entry.ref.id}` : unsavedRequestKey(entry);
}

/** The identity an entry for the same words had before its stored row was known. */
export function unsavedRequestKey(entry: RequestEntry): string {
  return entry.text.slice(0, REQUEST_KEY_CHARS).replace(/…$/, "");
}

/**
 * Of an earlier and a later entry for one request, the one to keep: the earlier, unless only the
 * later cites the stored row it was made in.
 */
export function citedRequest(earlier: RequestEntry, later: RequestEntry): RequestEntry {
  return earlier.ref?.kind !== "row" && later.ref?.kind === "row" ? later : earlier;
}

/** `[#N] text`, the text cut to `width`. */
export function renderRequest(entry: RequestEntry, cutText: (text: string) => string): string {
  return entry.ref ? `${renderRef(entry.ref)} ${cutText(entry.text)}` : cutText(entry.text);
}

const REQUEST = new RegExp(`^(?:(${REF_PATTERN}) )?(.+)$`);

/** Reads a request line; lines that are notes (`(…)`) are not requests. */
export function parseRequest(line: string): RequestEntry | undefined {
  const match = REQUEST.exec(line);
  if (!match || (match[1] === undefined && line.startsWith("("))) return undefined;
  const ref = match[1] === undefined ? undefined : parsePreviousRef(match[1]);
  return { ...(ref ? { ref } : {}), text: sanitizeInline(match[2] as string) };
}
