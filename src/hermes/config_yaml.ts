/**
 * Reads and edits single values of a YAML file as text, so every other line, comment and key of
 * Hermes's `config.yaml` stays byte for byte as it was. It understands block mappings (the style
 * Hermes and PyYAML write), plain and quoted scalars with trailing comments, and lists of names
 * written as block items or as a one-line `[a, b]`. A shape it cannot edit safely raises
 * {@linkcode YamlEditError} instead of guessing.
 *
 * @module
 */

/** The file uses a YAML shape this editor does not change safely; the message says which. */
export class YamlEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "YamlEditError";
  }
}

interface Line {
  readonly text: string;
  readonly indent: number;
  readonly kind: "blank" | "comment" | "key" | "item" | "other";
  /** For `key` lines: the key, unquoted. */
  readonly key?: string;
  /** For `key` and `item` lines: where the value (and its comment) starts in `text`. */
  readonly valueAt: number;
}

/** A file's lines, without their line ends, and the line end it uses. */
interface Document {
  readonly lines: readonly Line[];
  readonly eol: string;
}

const KEY_LINE =
  /^( *)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{}[\],&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?) *:(?= |$)/;
const ITEM_LINE = /^( *)-(?= |$)/;
const MAPPING_ITEM = /^[^'"\s#][^:#]*?:(?: |$)/;
const EMPTY_VALUES = new Set(["", "~", "null", "Null", "NULL"]);

function parse(source: string): Document {
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  return { lines: source.split(eol).map(parseLine), eol };
}

function parseLine(text: string): Line {
  const indent = text.length - text.trimStart().length;
  if (text.trim() === "") return { text, indent, kind: "blank", valueAt: text.length };
  if (text.trimStart().startsWith("#")) return { text, indent, kind: "comment", valueAt: 0 };
  const item = ITEM_LINE.exec(text);
  if (item) return { text, indent, kind: "item", valueAt: item[0].length };
  const key = KEY_LINE.exec(text);
  if (key) return { text, indent, kind: "key", key: unquote(key[2]!), valueAt: key[0].length };
  return { text, indent, kind: "other", valueAt: 0 };
}

function unquote(token: string): string {
  if (token.startsWith('"')) return JSON.parse(token) as string;
  if (token.startsWith("'")) return token.slice(1, -1).replaceAll("''", "'");
  return token;
}

/**
 * A line's value (trimmed, without its trailing comment), and the comment with the spacing before
 * it, so a new value can be put in its place.
 */
function valueOf(line: Line): { value: string; comment: string } {
  const rest = line.text.slice(line.valueAt);
  let quote: string | undefined;
  let end = rest.length;
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i]!;
    if (quote !== undefined) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === "#" && i > 0 && (rest[i - 1] === " " || rest[i - 1] === "\t")) {
      end = i;
      break;
    }
  }
  const before = rest.slice(0, end);
  return {
    value: before.trim(),
    comment: end < rest.length ? rest.slice(before.trimEnd().length) : "",
  };
}

/** `line` with its value replaced by `value` (none when empty), its comment kept. */
function withValue(line: Line, value: string): string {
  const head = line.text.slice(0, line.valueAt);
  return `${head}${value === "" ? "" : ` ${value}`}${valueOf(line).comment}`;
}

function isContent(line: Line): boolean {
  return line.kind !== "blank" && line.kind !== "comment";
}

/** One past the last line owned by the line at `parent` (-1 for the whole file). */
function blockEnd(lines: readonly Line[], parent: number): number {
  if (parent < 0) return lines.length;
  const owner = lines[parent]!;
  let end = parent + 1;
  for (let i = parent + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!isContent(line)) continue;
    // PyYAML writes a mapping's list items at the key's own indentation.
    const indentlessItem = line.kind === "item" && line.indent === owner.indent;
    if (line.indent <= owner.indent && !indentlessItem) break;
    end = i + 1;
  }
  return end;
}

/** Indentation of the first line inside the block of `parent`, if the block has any. */
function childIndent(lines: readonly Line[], parent: number): number | undefined {
  const end = blockEnd(lines, parent);
  for (let i = parent + 1; i < end; i++) if (isContent(lines[i]!)) return lines[i]!.indent;
  return undefined;
}

/** The line of `key` directly inside the block of `parent` (-1 for the top level). */
function findChild(lines: readonly Line[], parent: number, key: string): number | undefined {
  const indent = childIndent(lines, parent);
  const end = blockEnd(lines, parent);
  for (let i = parent + 1; i < end; i++) {
    const line = lines[i]!;
    if (line.kind === "key" && line.indent === indent && line.key === key) return i;
  }
  return undefined;
}

/** Follows `path` from the top level: the deepest line found and how many keys matched. */
function locate(lines: readonly Line[], path: readonly string[]): { line: number; depth: number } {
  let line = -1;
  let depth = 0;
  for (const key of path) {
    const child = findChild(lines, line, key);
    if (child === undefined) break;
    line = child;
    depth++;
  }
  return { line, depth };
}

function render(lines: readonly string[], eol: string): string {
  return lines.join(eol);
}

/** A name as a YAML scalar: plain when that reads back as the same string, else double-quoted. */
function scalarText(value: string): string {
  const plain = /^[A-Za-z0-9_./][A-Za-z0-9_./-]*$/.test(value) &&
    !/^(true|false|null|yes|no|on|off|y|n|~|[-+.\d].*)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

/** A scalar token as text: quotes removed; `undefined` for an empty or null value. */
function scalarValue(token: string): string | undefined {
  if (EMPTY_VALUES.has(token)) return undefined;
  if (/^"(?:[^"\\]|\\.)*"$|^'(?:[^']|'')*'$/.test(token)) return unquote(token);
  return token;
}

/**
 * The scalar at `path` (such as `["context", "engine"]`), unquoted; `undefined` when a key on the
 * path is missing or the value is empty, null or not a scalar.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(readYamlScalar("context:\n  engine: vcc  # mine\n", ["context", "engine"]), "vcc");
 * ```
 */
export function readYamlScalar(text: string, path: readonly string[]): string | undefined {
  const { lines } = parse(text);
  const found = locate(lines, path);
  if (found.depth < path.length) return undefined;
  const value = scalarValue(valueOf(lines[found.line]!).value);
  return value === undefined || /^[[{|>&*!]/.test(value) ? undefined : value;
}

/**
 * Sets the scalar at `path` to `value`, adding missing keys, and returns the new text. A trailing
 * comment on the value's line is kept; nothing else changes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   setYamlScalar("# mine\ncontext:\n  engine: compressor  # default\n", ["context", "engine"], "vcc"),
 *   "# mine\ncontext:\n  engine: vcc  # default\n",
 * );
 * ```
 */
export function setYamlScalar(text: string, path: readonly string[], value: string): string {
  return setValue(text, path, scalarText(value));
}

function setValue(text: string, path: readonly string[], valueText: string): string {
  const { lines, eol } = parse(text);
  const found = locate(lines, path);
  if (found.depth < path.length) return insertMissing(lines, eol, found, path, valueText);
  const line = lines[found.line]!;
  const { value } = valueOf(line);
  if (value === "" && childIndent(lines, found.line) !== undefined) {
    throw new YamlEditError(`${path.join(".")} holds a nested block, not a single value`);
  }
  if (/^[|>&*!]/.test(value)) {
    throw new YamlEditError(`${path.join(".")} uses a YAML form this tool does not edit`);
  }
  const out = lines.map((each) => each.text);
  out[found.line] = withValue(line, valueText);
  return render(out, eol);
}

function insertMissing(
  lines: readonly Line[],
  eol: string,
  found: { line: number; depth: number },
  path: readonly string[],
  valueText: string,
): string {
  const parent = found.line;
  const out = lines.map((line) => line.text);
  const parentValue = parent < 0 ? "" : valueOf(lines[parent]!).value;
  if (!EMPTY_VALUES.has(parentValue) && parentValue !== "{}") {
    const where = path.slice(0, found.depth).join(".");
    throw new YamlEditError(`${where} is not written as an indented block of keys`);
  }
  const indent = childIndent(lines, parent) ?? (parent < 0 ? 0 : lines[parent]!.indent + 2);
  const missing = path.slice(found.depth);
  const added = missing.map((key, i) => {
    const pad = " ".repeat(indent + 2 * i);
    return i === missing.length - 1 ? `${pad}${key}: ${valueText}` : `${pad}${key}:`;
  });
  if (parent >= 0) {
    out[parent] = withValue(lines[parent]!, "");
    out.splice(parent + 1, 0, ...added);
    return render(out, eol);
  }
  const body = render(out, eol);
  const separator = body === "" || body.endsWith(eol) ? "" : eol;
  return `${body}${separator}${added.join(eol)}${eol}`;
}

interface ListItem {
  readonly value: string;
  /** The item as written (quotes kept). */
  readonly raw: string;
  readonly line: number;
}

/** A list of names as written: block items (`- a` lines) or one line (`[a, b]`, empty, null). */
type ListShape =
  | { readonly form: "block"; readonly items: readonly ListItem[]; readonly indent: number }
  | { readonly form: "inline"; readonly items: readonly ListItem[] };

function listAt(lines: readonly Line[], at: number): ListShape | undefined {
  const { value } = valueOf(lines[at]!);
  if (EMPTY_VALUES.has(value)) {
    const indent = childIndent(lines, at);
    if (indent === undefined) return { form: "inline", items: [] };
    const items: ListItem[] = [];
    const end = blockEnd(lines, at);
    for (let i = at + 1; i < end; i++) {
      const line = lines[i]!;
      if (!isContent(line)) continue;
      if (line.kind !== "item" || line.indent !== indent) return undefined;
      const raw = valueOf(line).value;
      const item = scalarValue(raw);
      if (item === undefined || /^[[{]/.test(item) || MAPPING_ITEM.test(raw)) return undefined;
      items.push({ value: item, raw, line: i });
    }
    return { form: "block", items, indent };
  }
  const flow = /^\[(.*)\]$/.exec(value);
  if (!flow) return undefined;
  const inner = flow[1]!.trim();
  const tokens = inner === "" ? [] : inner.split(",").map((token) => token.trim());
  const items: ListItem[] = [];
  for (const raw of tokens) {
    const item = scalarValue(raw);
    if (item === undefined || /^[[{]/.test(item)) return undefined;
    items.push({ value: item, raw, line: at });
  }
  return { form: "inline", items };
}

/**
 * The names in the list at `path`; `undefined` when the path is missing or does not hold a list of
 * plain names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(readYamlList("plugins:\n  enabled:\n  - a\n  - b\n", ["plugins", "enabled"]), [
 *   "a",
 *   "b",
 * ]);
 * ```
 */
export function readYamlList(text: string, path: readonly string[]): string[] | undefined {
  const { lines } = parse(text);
  const found = locate(lines, path);
  if (found.depth < path.length) return undefined;
  return listAt(lines, found.line)?.items.map((item) => item.value);
}

/**
 * Appends `item` to the list at `path` unless it is already there, and returns the new text. A
 * missing list is added as `[item]`, with any missing keys above it.
 */
export function addToYamlList(text: string, path: readonly string[], item: string): string {
  const { lines, eol } = parse(text);
  const found = locate(lines, path);
  if (found.depth < path.length) return setValue(text, path, `[${scalarText(item)}]`);
  const list = listAt(lines, found.line);
  if (list === undefined) throw new YamlEditError(`${path.join(".")} is not a list of names`);
  if (list.items.some((entry) => entry.value === item)) return text;
  const out = lines.map((line) => line.text);
  if (list.form === "block") {
    const after = list.items.at(-1)?.line ?? found.line;
    out.splice(after + 1, 0, `${" ".repeat(list.indent)}- ${scalarText(item)}`);
  } else {
    const values = [...list.items.map((entry) => entry.raw), scalarText(item)];
    out[found.line] = withValue(lines[found.line]!, `[${values.join(", ")}]`);
  }
  return render(out, eol);
}

/** Removes `item` from the list at `path` and returns the new text; unchanged when absent. */
export function removeFromYamlList(text: string, path: readonly string[], item: string): string {
  const { lines, eol } = parse(text);
  const found = locate(lines, path);
  if (found.depth < path.length) return text;
  const list = listAt(lines, found.line);
  if (list === undefined || !list.items.some((entry) => entry.value === item)) return text;
  const kept = list.items.filter((entry) => entry.value !== item);
  const out = lines.map((line) => line.text);
  if (list.form === "inline" || kept.length === 0) {
    const values = kept.map((entry) => entry.raw);
    out[found.line] = withValue(lines[found.line]!, `[${values.join(", ")}]`);
  }
  const dropped = new Set(
    list.form === "block" ? list.items.filter((e) => !kept.includes(e)).map((e) => e.line) : [],
  );
  return render(out.filter((_, index) => !dropped.has(index)), eol);
}
