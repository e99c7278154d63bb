import { contentText, sanitizeInline, wordsOf } from "../../core/mod.ts";

/**
 * Every word a projection line may quote from `row`: the words of its content text, of its
 * tool calls' names and arguments, and of its tool name. JSON text (results, arguments) adds the
 * words of its decoded strings, and every text also counts in its sanitised form, so an excerpt
 * of decoded or cleaned text still matches its source.
 */
export function rowWords(row: unknown): Set<string> {
  const words = new Set<string>();
  if (row === null || typeof row !== "object") return words;
  const record = row as Record<string, unknown>;
  const add = (text: string) => {
    for (const word of wordsOf(text)) words.add(word);
    for (const word of wordsOf(sanitizeInline(text))) words.add(word);
    for (const leaf of jsonStrings(text)) {
      for (const word of wordsOf(sanitizeInline(leaf))) words.add(word);
    }
  };
  add(contentText(record.content));
  if (typeof record.tool_name === "string") add(record.tool_name);
  if (Array.isArray(record.tool_calls)) {
    for (const call of record.tool_calls) {
      const fn = (call as { function?: Record<string, unknown> } | null)?.function ?? {};
      if (typeof fn.name === "string") add(fn.name);
      if (typeof fn.arguments === "string") add(fn.arguments);
      else if (fn.arguments !== undefined) add(JSON.stringify(fn.arguments));
    }
  }
  return words;
}

/** The string leaves of `text` when it is JSON, else none. */
function jsonStrings(text: string): string[] {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[" && start !== '"') return [];
  try {
    const leaves: string[] = [];
    collect(JSON.parse(text), leaves);
    return leaves;
  } catch {
    return [];
  }
}

function collect(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) { for (const item of value) collect(item, into); }
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      collect(item, into);
    }
  }
}
