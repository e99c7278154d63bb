/**
 * Selecting vcc in `config.yaml` and taking it back: `context.engine: vcc`, and `vcc` in
 * `plugins.enabled`. Activation changes only those two keys (adding the mappings that hold them
 * when missing) and returns, with the new text, what each key was before, so that deactivation
 * puts back exactly that even after the user has edited other parts of the file.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { isScalar, type Node, type YAMLMap } from "yaml";
import { YamlEditError } from "./config_errors.ts";
import {
  addChildEntry,
  addTopLevelLines,
  appendItem,
  type Entry,
  findEntry,
  indentUnit,
  removeEntry,
  removeItem,
  splice,
  topLevel,
} from "./config_edit.ts";
import {
  configData,
  parseConfig,
  type ParsedConfig,
  unicodeLineBreak,
  valueAt,
} from "./config_yaml.ts";
import { lineNumber } from "./text_lines.ts";

/** The `context.engine` value that selects vcc; also the plugin's name. */
export const ENGINE_NAME = "vcc";

/** The `context.engine` value of Hermes's built-in compressor. */
export const STOCK_ENGINE_NAME = "compressor";

const ENGINE_PATH = ["context", "engine"] as const;
const ENABLED_PATH = ["plugins", "enabled"] as const;

/** What one of the two keys was before activation changed it. */
export type Previous =
  /** It held this text after its colon (`""` when nothing, `~`, a name); activation replaced it. */
  | { readonly kind: "value"; readonly source: string }
  /** It was a list; activation appended `vcc`. */
  | { readonly kind: "list" }
  /** It was absent; activation added it, and its mapping too when that was absent or null. */
  | { readonly kind: "absent"; readonly parent: ParentBefore };

/** The mapping holding an absent key: there, absent too, or written as a null token. */
export type ParentBefore =
  | { readonly kind: "mapping" }
  | { readonly kind: "absent" }
  | { readonly kind: "null"; readonly source: string };

/** What activation changed: one entry per key it changed. */
export interface ActivationRecord {
  readonly engine?: Previous;
  readonly enabled?: Previous;
}

/** `config.yaml` text with vcc selected, and what was there before. */
export interface Activation {
  readonly text: string;
  readonly record: ActivationRecord;
}

type KeyPath = readonly [string, string];

interface KeyEdit {
  readonly text: string;
  readonly previous?: Previous;
}

function refuseUnicodeLineBreaks(text: string): void {
  const at = unicodeLineBreak(text);
  if (at !== undefined) {
    const code = text.codePointAt(at)!.toString(16).toUpperCase().padStart(4, "0");
    throw new YamlEditError(
      `line ${lineNumber(text, at)} holds U+${code}, a line break for YAML 1.1 readers and not ` +
        "for YAML 1.2 readers",
    );
  }
}

/**
 * `config.yaml` text with `context.engine: vcc` and `vcc` in `plugins.enabled`; nothing else
 * changes. Throws {@linkcode ConfigUnreadable} for text Hermes cannot read and
 * {@linkcode YamlEditError} for a shape this editor does not change.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { activateInConfig } from "./_activation.ts";
 * assert.equal(
 *   activateInConfig("model: x\n").text,
 *   "model: x\ncontext:\n  engine: vcc\nplugins:\n  enabled: [vcc]\n",
 * );
 * ```
 */
export function activateInConfig(text: string): Activation {
  const before = parseConfig(text);
  refuseUnicodeLineBreaks(text);
  const disabled = valueAt(configData(before), ["plugins", "disabled"]);
  if (Array.isArray(disabled) && disabled.includes(ENGINE_NAME)) {
    throw new YamlEditError(
      `plugins.disabled lists ${ENGINE_NAME}, which Hermes never loads; remove it there first`,
    );
  }
  const engine = setKey(before, ENGINE_PATH, ENGINE_NAME, selectEngine);
  const enabled = setKey(parseConfig(engine.text), ENABLED_PATH, `[${ENGINE_NAME}]`, enableVcc);
  requireOnlyTheTwoKeysChanged(before, parseConfig(enabled.text));
  const record: ActivationRecord = {
    ...(engine.previous && { engine: engine.previous }),
    ...(enabled.previous && { enabled: enabled.previous }),
  };
  return { text: enabled.text, record };
}

/**
 * Sets `path` in `config`: adds the key (and its mapping) with `valueText` when missing, else lets
 * `update` change the existing entry.
 */
function setKey(
  config: ParsedConfig,
  [parentKey, key]: KeyPath,
  valueText: string,
  update: (config: ParsedConfig, entry: Entry) => KeyEdit,
): KeyEdit {
  const top = topLevel(config);
  const unit = indentUnit(config, top);
  const parent = top && findEntry(config, top, parentKey, "the top level");
  if (parent === undefined) {
    const lines = [`${parentKey}:`, `${" ".repeat(unit)}${key}: ${valueText}`];
    return {
      text: addTopLevelLines(config, top, lines),
      previous: { kind: "absent", parent: { kind: "absent" } },
    };
  }
  const held = parent.value;
  if (held.kind === "scalar" && held.value === null) {
    const source = config.text.slice(held.start, held.end);
    return {
      text: splice(config.text, held.start, held.end, `{${key}: ${valueText}}`),
      previous: { kind: "absent", parent: { kind: "null", source } },
    };
  }
  if (held.kind !== "empty" && held.kind !== "map") {
    throw new YamlEditError(`${parentKey} is not a mapping (line ${lineOf(config, parent)})`);
  }
  const child = held.kind === "map" ? findEntry(config, held.node, key, parentKey) : undefined;
  if (child === undefined) {
    return {
      text: addChildEntry(config, parent, key, valueText, unit),
      previous: { kind: "absent", parent: { kind: "mapping" } },
    };
  }
  return update(config, child);
}

function lineOf(config: ParsedConfig, entry: Entry): number {
  return lineNumber(config.text, entry.colonEnd - 1);
}

/** `[start, end)` of an entry's value in the text (empty, just after the colon, when none). */
function valueSpan(entry: Entry): [number, number] {
  const value = entry.value;
  if (value.kind === "empty") return [entry.colonEnd, entry.colonEnd];
  if (value.kind === "scalar") return [value.start, value.end];
  const range = value.node.range!;
  return [range[0], range[1]];
}

/** Replaces an entry's value with `valueText`, remembering what was written there. */
function replaceValue(config: ParsedConfig, entry: Entry, valueText: string): KeyEdit {
  const [start, end] = valueSpan(entry);
  const source = config.text.slice(start, end);
  const text = entry.value.kind === "empty"
    ? splice(config.text, entry.colonEnd, entry.colonEnd, ` ${valueText}`)
    : splice(config.text, start, end, valueText);
  return { text, previous: { kind: "value", source } };
}

function selectEngine(config: ParsedConfig, entry: Entry): KeyEdit {
  const value = entry.value;
  if (value.kind === "scalar" && value.value === ENGINE_NAME) return { text: config.text };
  if (value.kind !== "empty" && value.kind !== "scalar") {
    throw new YamlEditError(`context.engine is not a single name (line ${lineOf(config, entry)})`);
  }
  return replaceValue(config, entry, ENGINE_NAME);
}

function enableVcc(config: ParsedConfig, entry: Entry): KeyEdit {
  const value = entry.value;
  if (value.kind === "empty" || (value.kind === "scalar" && value.value === null)) {
    return replaceValue(config, entry, `[${ENGINE_NAME}]`);
  }
  if (value.kind !== "seq") {
    throw new YamlEditError(`plugins.enabled is not a list (line ${lineOf(config, entry)})`);
  }
  if (value.node.items.some(isVccItem)) return { text: config.text };
  return {
    text: appendItem(config, value.node, ENGINE_NAME, "plugins.enabled"),
    previous: { kind: "list" },
  };
}

function isVccItem(item: unknown): boolean {
  return isScalar(item) && item.value === ENGINE_NAME;
}

function mapping(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/**
 * Throws unless `after` reads as `before` with `context.engine: vcc` and `vcc` in
 * `plugins.enabled`: the guarantee that the splices changed nothing else.
 */
function requireOnlyTheTwoKeysChanged(before: ParsedConfig, after: ParsedConfig): void {
  const data = configData(before);
  const plugins = mapping(data.plugins);
  const enabled = Array.isArray(plugins.enabled) ? plugins.enabled : [];
  const expected = {
    ...data,
    context: { ...mapping(data.context), engine: ENGINE_NAME },
    plugins: {
      ...plugins,
      enabled: enabled.includes(ENGINE_NAME) ? enabled : [...enabled, ENGINE_NAME],
    },
  };
  if (!isDeepStrictEqual(configData(after), expected)) {
    throw new YamlEditError("adding the two keys would change how other settings read");
  }
}

/**
 * `config.yaml` text with what {@linkcode activateInConfig} changed put back as `record` says,
 * for each key still as activation left it (`context.engine` still `vcc`, `vcc` still in
 * `plugins.enabled`); other keys, including those added since, stay. Without a record (an
 * activation by hand or by an older vcc), `context.engine: vcc` becomes `compressor` and `vcc`
 * leaves `plugins.enabled`.
 */
export function deactivateInConfig(text: string, record: ActivationRecord | undefined): string {
  const config = parseConfig(text);
  refuseUnicodeLineBreaks(text);
  const engine: Previous | undefined = record
    ? record.engine
    : { kind: "value", source: STOCK_ENGINE_NAME };
  const enabled: Previous | undefined = record ? record.enabled : { kind: "list" };
  let restored = engine ? restoreEngine(config, engine) : text;
  if (enabled) {
    // One vcc item at a time, so each removal sees the offsets of the text it edits.
    for (let left = countVccItems(parseConfig(restored)); left > 0; left--) {
      restored = restoreEnabled(parseConfig(restored), enabled);
    }
  }
  return restored;
}

interface Located {
  readonly top: YAMLMap<unknown, unknown>;
  readonly parent: Entry;
  readonly entry: Entry;
}

/** The entry at `path`, when its mapping is one; `undefined` when anything on the way is not. */
function locate(config: ParsedConfig, [parentKey, key]: KeyPath): Located | undefined {
  const top = topLevel(config);
  const parent = top && findEntry(config, top, parentKey, "the top level");
  if (top === undefined || parent?.value.kind !== "map") return undefined;
  const entry = findEntry(config, parent.value.node, key, parentKey);
  return entry && { top, parent, entry };
}

function restoreEngine(config: ParsedConfig, previous: Previous): string {
  const found = locate(config, ENGINE_PATH);
  const value = found?.entry.value;
  if (found === undefined || value?.kind !== "scalar" || value.value !== ENGINE_NAME) {
    return config.text;
  }
  return restore(config, found, previous);
}

function vccItems(config: ParsedConfig): { found: Located; items: unknown[] } | undefined {
  const found = locate(config, ENABLED_PATH);
  if (found?.entry.value.kind !== "seq") return undefined;
  return { found, items: found.entry.value.node.items };
}

function countVccItems(config: ParsedConfig): number {
  return vccItems(config)?.items.filter(isVccItem).length ?? 0;
}

/** Takes one `vcc` out of `plugins.enabled`; as `previous` says when it is the only item. */
function restoreEnabled(config: ParsedConfig, previous: Previous): string {
  const list = vccItems(config)!;
  const item = list.items.find(isVccItem) as Node;
  const onlyItem = list.items.length === 1;
  if (previous.kind === "list" || !onlyItem) return removeItem(config, list.found.entry, item);
  return restore(config, list.found, previous);
}

/** Puts back what a key was before activation, the key now holding only what activation wrote. */
function restore(
  config: ParsedConfig,
  { top, parent, entry }: Located,
  previous: Previous,
): string {
  if (previous.kind === "value") {
    const [start, end] = valueSpan(entry);
    return previous.source === ""
      ? splice(config.text, entry.colonEnd, end, "")
      : splice(config.text, start, end, previous.source);
  }
  const held = parent.value;
  if (previous.kind !== "absent" || held.kind !== "map") return config.text;
  if (held.node.items.length === 1 && previous.parent.kind === "absent") {
    return removeEntry(config, top, parent);
  }
  if (held.node.items.length === 1 && previous.parent.kind === "null" && held.node.flow) {
    const [start, end] = valueSpan(parent);
    return splice(config.text, start, end, previous.parent.source);
  }
  return removeEntry(config, held.node, entry);
}
