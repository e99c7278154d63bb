/**
 * The pure projector: a Hermes window in, a deterministic Markdown summary out.
 *
 * @module
 */
export * from "./types.ts";
export { project } from "./project.ts";
