/**
 * The pure projector: a Hermes window in, a deterministic Markdown summary out.
 *
 * @module
 */
export * from "./types.ts";
export { project } from "./project.ts";
export { LABEL_WORDS, wordsOf } from "./vocabulary.ts";
export { CHARS_PER_TOKEN, DEFAULT_BUDGET_TOKENS, SECTION_CAPS } from "./project.ts";
export { contentText } from "./content.ts";
export { rowReference } from "./message.ts";
export { sanitizeInline } from "./sanitize.ts";
