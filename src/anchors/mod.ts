/**
 * Hermes's anchor index, built in TypeScript: the exact identifiers of the turns being compacted,
 * byte-identical to what Hermes's own builder appends to a summary, so the plugin can skip that
 * slower builder. Independent of the projector in `src/core`.
 *
 * @module
 */
export { buildAnchorIndex } from "./anchor_index.ts";
export { PYTHON_UNICODE_VERSION } from "./_python_unicode.ts";
