import { sanitizeInline } from "./sanitize.ts";

/** Longest raw prefix worth sanitising for an excerpt of `limit` characters. */
function rawWindow(limit: number): number {
  return limit * 4 + 256;
}

/**
 * A sanitised, single-line excerpt of `text` of at most `limit` characters, cut at a word
 * boundary and marked with `…` when shortened.
 *
 * @example
 * ```ts
 * import { excerpt } from "./excerpt.ts";
 * excerpt("one two three four", 12); // "one two…"
 * ```
 */
export function excerpt(text: string, limit: number): string {
  if (text.length <= rawWindow(limit)) return cut(sanitizeInline(text), limit);
  // Only a prefix was cleaned: its last word may be cut, so the excerpt always ends before it.
  const clean = sanitizeInline(text.slice(0, rawWindow(limit)));
  return cut(clean, Math.min(limit, clean.length - 1));
}

/** Shortens already-clean single-line text to at most `limit` characters at a word boundary. */
export function cut(clean: string, limit: number): string {
  if (clean.length <= limit) return clean;
  if (limit <= 1) return "";
  const head = clean.slice(0, limit - 1);
  const space = head.lastIndexOf(" ");
  const body = space > 0 ? head.slice(0, space) : head;
  return `${dropSplitSurrogate(body).trimEnd()}…`;
}

function dropSplitSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
