/**
 * Flattens a message's `content` to text, whatever shape Hermes stored: a string, a list of parts,
 * or Hermes's multimodal tool dict (`{"_multimodal": true, "content": [...], "text_summary": ...}`).
 * Images become `[image]`; anything unusable becomes the empty string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentText } from "./content.ts";
 * assert.equal(
 *   contentText([{ type: "text", text: "look" }, { type: "image_url", image_url: {} }]),
 *   "look\n[image]",
 * );
 * ```
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return partsText(content);
  if (isRecord(content)) {
    if (typeof content.text_summary === "string" && content.text_summary !== "") {
      return content.text_summary;
    }
    if (Array.isArray(content.content)) return partsText(content.content);
    if (typeof content.content === "string") return content.content;
    if (typeof content.text === "string") return content.text;
  }
  return "";
}

function partsText(parts: readonly unknown[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") texts.push(part);
    else if (isRecord(part)) {
      if (typeof part.text === "string") texts.push(part.text);
      else if (typeof part.type === "string" && /image|audio|file|video/.test(part.type)) {
        texts.push(`[${part.type.replace(/_url$/, "")}]`);
      }
    }
  }
  return texts.join("\n");
}

/** Whether `value` is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
