/**
 * Hermes's rough token count of the turns it compacts, which scales its summary budget and so the
 * projection budget. Hermes counts the length of each message's Python text (`str(message)`, with
 * quotes, `': '` and `', '` between items, `None`, `True`), not of its JSON, and images at a flat
 * price; counting JSON instead made the two sides differ by about 3% on the same window.
 *
 * @module
 */

/** What Hermes charges for one image part instead of the length of its data. */
export const IMAGE_TOKENS = 1_500;

/** The content part types Hermes counts as images. */
export const IMAGE_PART_TYPES: ReadonlySet<unknown> = new Set([
  "image",
  "image_url",
  "input_image",
]);

/**
 * Hermes's `estimate_messages_tokens_rough(messages)` (hermes-agent 0.19): the characters of every
 * message's Python text, image data replaced by a placeholder and `_anthropic_content_blocks`
 * left out, divided by four and rounded up, plus {@linkcode IMAGE_TOKENS} per image. Characters
 * are code points, as Python counts them. The `_row_id` vcc puts on rows it reads from `state.db`
 * is left out too: Hermes's turns do not carry it, or later releases do not count it.
 *
 * Later releases count some windows differently (text outside ASCII by its UTF-8 bytes, each
 * message rounded up on its own, bookkeeping fields left out); `tests/shared/hermes_tokens.json`
 * shows each installed release's count beside this one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hermesTokens } from "./hermes_tokens.ts";
 *
 * // str({'role': 'user', 'content': 'hi'}) is 33 characters: 9 tokens.
 * assert.equal(hermesTokens([{ role: "user", content: "hi" }]), 9);
 * ```
 */
export function hermesTokens(messages: readonly unknown[]): number {
  let chars = 0;
  let images = 0;
  for (const message of messages) {
    if (!isObject(message)) {
      chars += typeof message === "string" ? codePoints(message) : pythonTextLength(message);
      continue;
    }
    chars += pythonTextLength(withoutImageData(message));
    images += imageCount(message);
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/** The message as Hermes measures it: image parts reduced to their type, multimodal contents to
 * their text summary, no `_anthropic_content_blocks` and no `_row_id`. */
function withoutImageData(message: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const shadow: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === "_anthropic_content_blocks" || key === "_row_id") continue;
    if (key !== "content") shadow[key] = value;
    else if (Array.isArray(value)) {
      shadow[key] = value.map((part) =>
        isObject(part) && IMAGE_PART_TYPES.has(part.type)
          ? { type: part.type, image: "[stripped]" }
          : part
      );
    } else if (isObject(value) && value._multimodal) {
      shadow[key] = "text_summary" in value ? value.text_summary : "";
    } else shadow[key] = value;
  }
  return shadow;
}

function imageCount(message: Readonly<Record<string, unknown>>): number {
  const count = (parts: unknown, types: ReadonlySet<unknown>) =>
    Array.isArray(parts)
      ? parts.filter((part) => isObject(part) && types.has(part.type)).length
      : 0;
  const { content, _anthropic_content_blocks: blocks } = message;
  const multimodal = isObject(content) && content._multimodal ? content.content : undefined;
  return count(content, IMAGE_PART_TYPES) + count(blocks, new Set(["image"])) +
    count(multimodal, new Set(["image", "image_url"]));
}

/** The length of Python's `str(value)` for a value decoded from JSON. */
export function pythonTextLength(value: unknown): number {
  if (value === null || value === undefined || value === true) return 4;
  if (value === false) return 5;
  if (typeof value === "number") return pythonNumberText(value).length;
  if (typeof value === "string") return pythonStringLength(value);
  if (Array.isArray(value)) {
    return value.reduce((sum: number, item) => sum + pythonTextLength(item), 2) +
      2 * Math.max(0, value.length - 1);
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    return entries.reduce(
      (sum, [key, item]) => sum + pythonStringLength(key) + 2 + pythonTextLength(item),
      2,
    ) + 2 * Math.max(0, entries.length - 1);
  }
  return String(value).length;
}

/** Python's text of a number from JSON: an integer as an `int`, anything else as a `float`'s repr. */
export function pythonNumberText(value: number): string {
  if (Number.isInteger(value)) return value.toFixed(0);
  if (!Number.isFinite(value)) return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  const negative = mantissa!.startsWith("-");
  const digits = mantissa!.replace(/[-.]/g, "");
  const text = exponent < 0
    ? `0.${"0".repeat(-exponent - 1)}${digits}`
    : `${digits.slice(0, exponent + 1).padEnd(exponent + 1, "0")}.${digits.slice(exponent + 1)}`;
  return `${negative ? "-" : ""}${text}`;
}

// Characters Python's str.isprintable() rejects: other (Cc, Cf, Cs, Co, Cn) and separators other
// than the space.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** The length of Python's `repr()` of a string: quotes, escapes, `\x`/`\u`/`\U` for unprintables. */
function pythonStringLength(text: string): number {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let length = 2;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === "\\" || char === "\t" || char === "\n" || char === "\r") {
      length += 2;
    } else if (code < 0x20 || code === 0x7f) length += 4;
    else if (code < 0x7f || char === " " || !UNPRINTABLE.test(char)) length += 1;
    else length += code < 0x100 ? 4 : code < 0x10000 ? 6 : 10;
  }
  return length;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
