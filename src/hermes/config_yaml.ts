/**
 * Parses `config.yaml` the way Hermes reads it: YAML 1.1, one document, a mapping of settings at
 * the top. Every deviation Hermes's loaders would reject (a syntax error, a key written twice, a
 * second document, an unknown tag, a list or text at the top, a tab where a loader takes none) is a
 * {@linkcode ConfigUnreadable} naming its line.
 *
 * @module
 */
import { type Document, isMap, isScalar, parseAllDocuments } from "yaml";
import { ConfigUnreadable } from "./config_errors.ts";
import { rejectedTab } from "./config_tabs.ts";
import { lineNumber } from "./text_lines.ts";

/** `config.yaml` parsed: its text and its one document (absent when it has none). */
export interface ParsedConfig {
  /** The text parsed; the offsets in the document's nodes index it. */
  readonly text: string;
  readonly document?: Document.Parsed;
}

/** YAML 1.1 line breaks other than CR and LF: Hermes's readers break lines at them. */
const UNICODE_LINE_BREAKS = /[\u0085\u2028\u2029]/;

/**
 * `text` parsed as Hermes reads `config.yaml`. A lone CR and the YAML 1.1 line breaks NEL, LS and
 * PS count as line ends, as in Hermes's readers; offsets stay those of `text`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConfigUnreadable } from "./config_errors.ts";
 * import { parseConfig } from "./config_yaml.ts";
 * assert.throws(() => parseConfig("a: 1\na: 2\n"), ConfigUnreadable);
 * ```
 */
export function parseConfig(text: string): ParsedConfig {
  const lineEnds = text.replace(new RegExp(`\\r(?!\\n)|${UNICODE_LINE_BREAKS.source}`, "g"), "\n");
  const documents = parseAllDocuments(lineEnds, { version: "1.1", prettyErrors: false });
  const document = Array.isArray(documents) ? documents[0] : undefined;
  const problem = document?.errors[0] ?? document?.warnings[0];
  const tab = rejectedTab(lineEnds, (offset) => lineNumber(text, offset));
  // Whichever comes first is reported: a syntax problem before a tab can make it look misplaced.
  if (tab !== undefined && (problem === undefined || tab.offset <= problem.pos[0])) {
    throw new ConfigUnreadable(tab.problem, tab.fix);
  }
  if (!Array.isArray(documents) || document === undefined) return { text };
  if (documents.length > 1) {
    const second = lineNumber(text, documents[1]!.range[0]);
    throw new ConfigUnreadable(`a second YAML document starts on line ${second}`);
  }
  if (problem !== undefined) {
    const message = problem.code === "DUPLICATE_KEY"
      ? `the key ${/^[^:\r\n]*/.exec(text.slice(problem.pos[0]))![0].trim()} is written twice`
      : problem.message;
    throw new ConfigUnreadable(`${message} (line ${lineNumber(text, problem.pos[0])})`);
  }
  const top = document.contents;
  const isEmpty = top === null || (isScalar(top) && top.value === null);
  if (!isEmpty && !isMap(top)) {
    throw new ConfigUnreadable("the top level is not a mapping of settings");
  }
  return { text, document };
}

/** Whether `text` has a line break that YAML 1.1 readers see and YAML 1.2 readers do not. */
export function unicodeLineBreak(text: string): number | undefined {
  const found = UNICODE_LINE_BREAKS.exec(text);
  return found === null ? undefined : found.index;
}

/** The settings of a parsed `config.yaml` as plain data (`{}` for a file without any). */
export function configData(config: ParsedConfig): Record<string, unknown> {
  const data: unknown = config.document?.toJS();
  return typeof data === "object" && data !== null ? data as Record<string, unknown> : {};
}

/** The value at `path` in `data`, or `undefined` when a key on the way is missing. */
export function valueAt(data: unknown, path: readonly string[]): unknown {
  let node = data;
  for (const key of path) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The string at `path` (such as `["context", "engine"]`) in `config.yaml` text; `undefined` when
 * the text does not parse, a key on the path is missing, or the value is not a string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readYamlScalar } from "./config_yaml.ts";
 * assert.equal(readYamlScalar("context:\n  engine: vcc  # mine\n", ["context", "engine"]), "vcc");
 * ```
 */
export function readYamlScalar(text: string, path: readonly string[]): string | undefined {
  try {
    const value = valueAt(configData(parseConfig(text)), path);
    return typeof value === "string" ? value : undefined;
  } catch (error) {
    if (error instanceof ConfigUnreadable) return undefined;
    throw error;
  }
}
