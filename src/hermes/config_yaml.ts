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
  /** The settings as plain data (`{}` for a file without any). */
  readonly data: Record<string, unknown>;
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
  if (!Array.isArray(documents) || document === undefined) return { text, data: {} };
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
  return { text, document, data: settingsOf(document, text) };
}

/** The document's settings as plain data; an alias to no anchor is unreadable, as for Hermes. */
function settingsOf(document: Document.Parsed, text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = document.toJS();
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    // yaml's message ends with the alias's name.
    const name = /:\s*(\S+)$/.exec(error.message)?.[1];
    const at = name === undefined
      ? -1
      : text.search(new RegExp(`\\*${RegExp.escape(name)}(?![^\\s,\\[\\]{}])`));
    const alias = name === undefined ? "an alias" : `the alias *${name}`;
    const where = at === -1 ? "" : ` on line ${lineNumber(text, at)}`;
    throw new ConfigUnreadable(`${alias}${where} names no anchor set before it`);
  }
  return typeof data === "object" && data !== null ? data as Record<string, unknown> : {};
}

/** Whether `text` has a line break that YAML 1.1 readers see and YAML 1.2 readers do not. */
export function unicodeLineBreak(text: string): number | undefined {
  const found = UNICODE_LINE_BREAKS.exec(text);
  return found === null ? undefined : found.index;
}

/** The settings of a parsed `config.yaml` as plain data (`{}` for a file without any). */
export function configData(config: ParsedConfig): Record<string, unknown> {
  return config.data;
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
