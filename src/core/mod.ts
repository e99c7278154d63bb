/**
 * The pure projector: a Hermes window in, a deterministic Markdown summary out.
 *
 * @module
 */
export * from "./types.ts";
export { CHARS_PER_TOKEN, DEFAULT_BUDGET_TOKENS, project } from "./project.ts";
export { LABEL_TOKENS, LABEL_WORDS, wordsOf } from "./vocabulary.ts";
export { contentText } from "./content.ts";
export { type Ref, refLabel, windowRef } from "./ref.ts";
export { sanitizeInline } from "./sanitize.ts";
export { isHeader } from "./header.ts";
export { fingerprint } from "./fingerprint.ts";
export { isPruningLine, parseStub, type Stub } from "./stub.ts";
export { withoutRestatement } from "./requests.ts";
export { type PersistedOutput, persistedOutput } from "./persisted_output.ts";
export { SAVED_OUTPUT_FIELD } from "./message.ts";
export * from "./hermes.ts";
export {
  type BudgetPart,
  HEADINGS,
  SECTION_DESCRIPTIONS,
  SECTION_LAYOUT,
  type SectionDescription,
  type SectionId,
} from "./sections/table.ts";
