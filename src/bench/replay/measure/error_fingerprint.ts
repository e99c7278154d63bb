/**
 * Error fingerprints: an error line with what varies between occurrences masked (uuids, runs of
 * six or more hexadecimal digits with a digit among them, then every number), and whitespace
 * folded. Two lines with one fingerprint report the same error; a request keeps a fingerprint
 * when its masked text contains it.
 *
 * @module
 */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX_RUN = /\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b/gi;
const NUMBER = /\d+/g;

/** The fingerprint of `text`. */
export function fingerprint(text: string): string {
  return text.replace(UUID, "<uuid>").replace(HEX_RUN, "<hex>").replace(NUMBER, "<n>")
    .replace(/\s+/g, " ").trim();
}

/** The distinct fingerprints of `lines`, in first-seen order. */
export function distinctFingerprints(lines: readonly string[]): string[] {
  return [...new Set(lines.map(fingerprint))];
}

/** The fingerprints of `wanted` that `text` (masked the same way) contains. */
export function keptFingerprints(wanted: readonly string[], text: string): string[] {
  const masked = fingerprint(text);
  return wanted.filter((print) => masked.includes(print));
}
