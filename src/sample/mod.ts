/**
 * Generated sample data: realistic Hermes windows for tests, demos, golden files and benchmarks,
 * and arbitrary JSON values for fuzzing. Everything is deterministic for a given seed.
 *
 * @module
 */
export { CHARS_PER_TOKEN, generateWindow, type GenerateWindowOptions } from "./generate.ts";
export { type JsonValue, randomJsonValue } from "./json_value.ts";
export { SeededRandom } from "./random.ts";
export type { WindowRow } from "./window_builder.ts";
