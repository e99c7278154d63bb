/**
 * Edits of a parsed `config.yaml` as text splices at the offsets its nodes were read from, so
 * everything outside a splice keeps its bytes. Each edit that adds something has an inverse here
 * that takes exactly it away again. A node written in a form whose edit could change how YAML
 * readers see the rest of the file (an alias, an anchor, a tag, a merge key, a block scalar, a
 * value or flow collection over several lines) is a {@linkcode YamlEditError}, not a guess.
 *
 * @module
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { YamlEditError } from "./config_errors.ts";
import type { ParsedConfig } from "./config_yaml.ts";
import {
  insertLinesAfter,
  insertLinesFirst,
  type Line,
  lineAt,
  lineNumber,
  removeLines,
} from "./text_lines.ts";

/** A value as the editor sees it: where it is written, and in which form. */
export type Value =
  /** Nothing after the colon: a null without a token. */
  | { readonly kind: "empty" }
  /** A plain or quoted scalar on one line (`~` and `null` included), at `[start, end)`. */
  | {
    readonly kind: "scalar";
    readonly value: unknown;
    readonly start: number;
    readonly end: number;
  }
  | { readonly kind: "map"; readonly node: YAMLMap<unknown, unknown> }
  | { readonly kind: "seq"; readonly node: YAMLSeq<unknown> };

/** A key of a mapping, located in the text. */
export interface Entry {
  readonly pair: Pair<unknown, unknown>;
  /** Just past the `:` that ends the key. */
  readonly colonEnd: number;
  readonly value: Value;
}

const EDITABLE_SCALARS = new Set(["PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"]);

function refuse(config: ParsedConfig, offset: number, what: string): never {
  throw new YamlEditError(`${what} (line ${lineNumber(config.text, offset)})`);
}

function rangeOf(node: Node): [number, number, number] {
  if (!node.range) throw new Error("a parsed node has no source range");
  return node.range;
}

function spansLines(config: ParsedConfig, start: number, end: number): boolean {
  return /[\r\n]/.test(config.text.slice(start, end));
}

/**
 * How `node`, the value of `label`, is written; throws {@linkcode YamlEditError} for every form
 * this editor does not change.
 */
export function describeValue(config: ParsedConfig, node: unknown, label: string): Value {
  if (node === null) return { kind: "empty" };
  if (isAlias(node)) refuse(config, rangeOf(node)[0], `${label} is an alias (*${node.source})`);
  if (!isScalar(node) && !isMap(node) && !isSeq(node)) {
    throw new Error(`unexpected YAML node for ${label}`);
  }
  const [start, end] = rangeOf(node);
  if (node.anchor) refuse(config, start, `${label} carries an anchor (&${node.anchor})`);
  if (node.tag) refuse(config, start, `${label} carries a tag (${node.tag})`);
  if (isScalar(node)) {
    if (node.value === null && start === end) return { kind: "empty" };
    if (!EDITABLE_SCALARS.has(node.type ?? "") || spansLines(config, start, end)) {
      refuse(config, start, `${label} is written over several lines or as a block scalar`);
    }
    return { kind: "scalar", value: node.value, start, end };
  }
  if (node.flow && spansLines(config, start, end)) {
    refuse(config, start, `${label} is a flow collection written over several lines`);
  }
  return isMap(node) ? { kind: "map", node } : { kind: "seq", node };
}

/** The keys of `map`, refusing a merge key (`<<`), whose keys readers resolve differently. */
function pairsOf(config: ParsedConfig, map: YAMLMap<unknown, unknown>, label: string) {
  for (const pair of map.items) {
    if (isScalar(pair.key) && typeof pair.key.value === "symbol") {
      refuse(config, rangeOf(pair.key)[0], `${label} uses a merge key (<<)`);
    }
  }
  return map.items;
}

/** The entry `key` of `map`, or `undefined` when `map` has no such key. */
export function findEntry(
  config: ParsedConfig,
  map: YAMLMap<unknown, unknown>,
  key: string,
  label: string,
): Entry | undefined {
  const pair = pairsOf(config, map, label).find((each) =>
    isScalar(each.key) && each.key.value === key
  );
  if (pair === undefined) return undefined;
  const name = label === "the top level" ? key : `${label}.${key}`;
  const keyNode = pair.key as Node;
  const [keyStart, keyEnd] = rangeOf(keyNode);
  if (keyNode.anchor || keyNode.tag) refuse(config, keyStart, `the key ${name} carries properties`);
  let colon = keyEnd;
  while (config.text[colon] === " " || config.text[colon] === "\t") colon++;
  if (config.text[colon] !== ":") refuse(config, keyStart, `${name} is written as an explicit key`);
  return { pair, colonEnd: colon + 1, value: describeValue(config, pair.value, name) };
}

/**
 * The top-level mapping, or `undefined` for a file without settings yet; refuses a top level in
 * flow style, with properties or written as a null token.
 */
export function topLevel(config: ParsedConfig): YAMLMap<unknown, unknown> | undefined {
  const top = config.document?.contents;
  const value = describeValue(config, top ?? null, "the top level");
  if (value.kind === "empty") return undefined;
  if (value.kind !== "map" || value.node.flow) {
    refuse(config, rangeOf(top as Node)[0], "the top level is not a block of keys");
  }
  pairsOf(config, value.node, "the top level");
  return value.node;
}

/** Leading spaces of the line where `offset` is; refuses a key that does not start its line. */
function indentAt(config: ParsedConfig, offset: number): string {
  const prefix = config.text.slice(lineAt(config.text, offset).start, offset);
  if (!/^ *$/.test(prefix)) refuse(config, offset, "a key does not start its line");
  return prefix;
}

/**
 * How far the file indents a block under its key: from its first top-level key whose value is a
 * block of keys, else 2.
 */
export function indentUnit(
  config: ParsedConfig,
  top: YAMLMap<unknown, unknown> | undefined,
): number {
  for (const pair of top?.items ?? []) {
    const child = pair.value;
    if (isMap(child) && !child.flow && child.items.length > 0) {
      const outer = indentAt(config, rangeOf(pair.key as Node)[0]).length;
      const inner = indentAt(config, rangeOf(child.items[0]!.key as Node)[0]).length;
      if (inner > outer) return inner - outer;
    }
  }
  return 2;
}

/**
 * The text with `lines` added as the last keys of the top level: after its last line, before
 * whatever follows the document (a `...` marker, trailing comments).
 */
export function addTopLevelLines(
  config: ParsedConfig,
  top: YAMLMap<unknown, unknown> | undefined,
  lines: readonly string[],
): string {
  const { text } = config;
  if (top !== undefined) {
    const indent = indentAt(config, rangeOf(top.items[0]!.key as Node)[0]);
    const last = lineAt(text, Math.max(rangeOf(top)[1] - 1, 0));
    return insertLinesAfter(text, last, lines.map((line) => `${indent}${line}`));
  }
  const documentEnd = config.document ? config.document.range[1] : text.length;
  const lastWritten = text.slice(0, documentEnd).search(/\S\s*$/);
  return lastWritten < 0
    ? insertLinesFirst(text, lines)
    : insertLinesAfter(text, lineAt(text, lastWritten), lines);
}

/**
 * The text with `key: valueText` added to the value of `parent`, which is empty (the key gets a
 * block under it) or a mapping (the key comes first in a block, last in a flow mapping).
 */
export function addChildEntry(
  config: ParsedConfig,
  parent: Entry,
  key: string,
  valueText: string,
  unit: number,
): string {
  const { text } = config;
  const parentLine = lineAt(text, parent.colonEnd - 1);
  if (parent.value.kind === "empty") {
    const indent = indentAt(config, rangeOf(parent.pair.key as Node)[0]);
    return insertLinesAfter(text, parentLine, [`${indent}${" ".repeat(unit)}${key}: ${valueText}`]);
  }
  if (parent.value.kind !== "map") throw new Error("addChildEntry needs an empty or mapping value");
  const map = parent.value.node;
  if (map.flow) return addFlowItem(config, map, `${key}: ${valueText}`);
  const indent = indentAt(config, rangeOf(map.items[0]!.key as Node)[0]);
  return insertLinesAfter(text, parentLine, [`${indent}${key}: ${valueText}`]);
}

/** The text with `[start, end)` replaced by `replacement`. */
export function splice(text: string, start: number, end: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(end);
}

/** `[start, end)` of an item of a flow collection: a node, or a pair from its key to its value. */
function flowItemSpan(item: unknown): [number, number] {
  const [start, end] = isPair(item)
    ? [rangeOf(item.key as Node)[0], rangeOf((item.value ?? item.key) as Node)[1]]
    : rangeOf(item as Node);
  return [start, end];
}

function addFlowItem(
  config: ParsedConfig,
  collection: YAMLMap<unknown, unknown> | YAMLSeq<unknown>,
  itemText: string,
): string {
  const last = collection.items.at(-1);
  const at = last === undefined ? rangeOf(collection)[0] + 1 : flowItemSpan(last)[1];
  return splice(config.text, at, at, last === undefined ? itemText : `, ${itemText}`);
}

/** The indentation of the `-` that starts the line of a block list item. */
function blockItemIndent(config: ParsedConfig, item: Node): string {
  const [start] = rangeOf(item);
  const prefix = config.text.slice(lineAt(config.text, start).start, start);
  const dash = /^( *)- +$/.exec(prefix);
  if (dash === null) refuse(config, start, "a list item does not start its line with -");
  return dash[1]!;
}

/**
 * The text with `itemText` appended to the list `seq`, whose items must be scalars on one line
 * each (`label` names it in a refusal).
 */
export function appendItem(
  config: ParsedConfig,
  seq: YAMLSeq<unknown>,
  itemText: string,
  label: string,
): string {
  for (const item of seq.items) {
    if (describeValue(config, item, `an item of ${label}`).kind !== "scalar") {
      refuse(config, rangeOf(seq)[0], `${label} holds something other than names`);
    }
  }
  if (seq.flow) return addFlowItem(config, seq, itemText);
  const last = seq.items.at(-1) as Node;
  const indent = blockItemIndent(config, last);
  return insertLinesAfter(config.text, lineAt(config.text, rangeOf(last)[1] - 1), [
    `${indent}- ${itemText}`,
  ]);
}

/** The lines from the start of `first` to the end of `last` (the first node's line included). */
function linesOf(config: ParsedConfig, first: number, last: number): [Line, Line] {
  return [lineAt(config.text, first), lineAt(config.text, Math.max(last - 1, first))];
}

/** The text without `item` of the flow collection `collection`, and one separator next to it. */
function removeFlowItem(
  config: ParsedConfig,
  collection: YAMLMap<unknown, unknown> | YAMLSeq<unknown>,
  item: unknown,
): string {
  const items: unknown[] = collection.items;
  const at = items.indexOf(item);
  const [start, end] = flowItemSpan(item);
  if (at > 0) return splice(config.text, flowItemSpan(items[at - 1])[1], end, "");
  const next = items[at + 1];
  return splice(config.text, start, next === undefined ? end : flowItemSpan(next)[0], "");
}

/**
 * The text without the entry `entry` of `map`: its lines in a block mapping, the pair and one
 * comma in a flow mapping. The inverse of {@linkcode addChildEntry} and
 * {@linkcode addTopLevelLines}.
 */
export function removeEntry(
  config: ParsedConfig,
  map: YAMLMap<unknown, unknown>,
  entry: Entry,
): string {
  if (map.flow) return removeFlowItem(config, map, entry.pair);
  const end = entry.pair.value === null ? entry.colonEnd : rangeOf(entry.pair.value as Node)[1];
  const [first, last] = linesOf(config, rangeOf(entry.pair.key as Node)[0], end);
  return removeLines(config.text, first, last);
}

/**
 * The text without `item` of the list in `entry`: its line in a block list (an emptied block list
 * becomes `[]`), the item and one comma in a flow list. The inverse of {@linkcode appendItem}.
 */
export function removeItem(config: ParsedConfig, entry: Entry, item: Node): string {
  if (entry.value.kind !== "seq") throw new Error("removeItem needs a list");
  const seq = entry.value.node;
  if (seq.flow) return removeFlowItem(config, seq, item);
  const [first, last] = linesOf(config, rangeOf(item)[0], rangeOf(item)[1]);
  const removed = removeLines(config.text, first, last);
  return seq.items.length === 1 ? splice(removed, entry.colonEnd, entry.colonEnd, " []") : removed;
}
