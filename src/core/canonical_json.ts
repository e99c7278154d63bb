/**
 * Canonical text of any JSON value, without recursion: object keys sorted, so argument order never
 * changes a call's identity, and bounded, so no input depth or size can exhaust the stack or the
 * heap. Past {@linkcode MAX_DEPTH} levels a value is written as `…`, and the text stops growing
 * at {@linkcode MAX_CHARS}; two values that differ only beyond those bounds share one text.
 *
 * @module
 */

/** Nesting levels written in full. */
export const MAX_DEPTH = 64;
/** Longest canonical text, in UTF-16 code units. */
export const MAX_CHARS = 1 << 20;

type Frame =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "value"; readonly value: unknown; readonly depth: number };

/**
 * The canonical JSON text of `value`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./canonical_json.ts";
 * assert.equal(canonicalJson({ b: [1, { d: 2, c: 3 }], a: "x" }), '{"a":"x","b":[1,{"c":3,"d":2}]}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  const text = flatRecordText(value) ?? nestedText(value);
  return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
}

/**
 * The text of an object whose keys are already in order and whose values are all strings,
 * numbers, booleans or null (most calls' arguments): JSON's own, which is then the canonical
 * text; `undefined` for any other value.
 */
function flatRecordText(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (index > 0 && (keys[index - 1] as string) >= key) return undefined;
    const item = record[key];
    const type = typeof item;
    if (item !== null && type !== "string" && type !== "number" && type !== "boolean") {
      return undefined;
    }
  }
  return JSON.stringify(record);
}

/** The canonical text of any value, built from a stack of frames (no recursion). */
function nestedText(value: unknown): string {
  const out: string[] = [];
  let size = 0;
  const stack: Frame[] = [{ kind: "value", value, depth: 0 }];
  while (stack.length > 0 && size < MAX_CHARS) {
    const frame = stack.pop() as Frame;
    if (frame.kind === "text") {
      out.push(frame.text);
      size += frame.text.length;
      continue;
    }
    const { value: item, depth } = frame;
    if (item === null || typeof item !== "object") {
      const text = typeof item === "string" || typeof item === "number" || typeof item === "boolean"
        ? JSON.stringify(item)
        : "null";
      out.push(text);
      size += text.length;
      continue;
    }
    if (depth >= MAX_DEPTH) {
      out.push('"…"');
      size += 3;
      continue;
    }
    // Children are pushed in reverse so they pop in order.
    const parts: Frame[] = [];
    if (Array.isArray(item)) {
      parts.push({ kind: "text", text: "[" });
      item.forEach((child, index) => {
        if (index > 0) parts.push({ kind: "text", text: "," });
        parts.push({ kind: "value", value: child, depth: depth + 1 });
      });
      parts.push({ kind: "text", text: "]" });
    } else {
      const record = item as Record<string, unknown>;
      parts.push({ kind: "text", text: "{" });
      Object.keys(record).sort().forEach((key, index) => {
        parts.push({ kind: "text", text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` });
        parts.push({ kind: "value", value: record[key], depth: depth + 1 });
      });
      parts.push({ kind: "text", text: "}" });
    }
    for (let index = parts.length - 1; index >= 0; index--) stack.push(parts[index] as Frame);
  }
  return out.join("");
}
