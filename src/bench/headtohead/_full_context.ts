/** Tool results longer than this are cut in the uncompacted baseline. */
export const FULL_RESULT_CHARS = 1500;

/**
 * The compacted region rendered without compaction, the baseline context: one block per row
 * (`[USER]`, `[ASSISTANT]` with its tool calls, `[TOOL RESULT]`), tool results cut to
 * {@linkcode FULL_RESULT_CHARS} characters.
 */
export function renderFullContext(rows: readonly unknown[]): string {
  const blocks: string[] = [];
  for (const value of rows) {
    const row = (value ?? {}) as Record<string, unknown>;
    const text = contentOf(row.content);
    if (row.role === "tool") {
      const cut = text.length > FULL_RESULT_CHARS
        ? `${text.slice(0, FULL_RESULT_CHARS)} …[cut]`
        : text;
      blocks.push(`[TOOL RESULT ${String(row.tool_name ?? "")}]: ${cut}`);
      continue;
    }
    const calls = Array.isArray(row.tool_calls)
      ? (row.tool_calls as { function?: { name?: unknown; arguments?: unknown } }[]).map((call) =>
        `  ${String(call?.function?.name ?? "")}(${String(call?.function?.arguments ?? "")})`
      )
      : [];
    const head = `[${String(row.role ?? "unknown").toUpperCase()}]: ${text}`;
    blocks.push(calls.length > 0 ? `${head}\n[Tool calls:\n${calls.join("\n")}\n]` : head);
  }
  return blocks.join("\n\n");
}

function contentOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part as { text?: unknown })?.text ?? "[attachment]").join("\n");
  }
  const summary = (content as { text_summary?: unknown } | null)?.text_summary;
  return typeof summary === "string" ? summary : JSON.stringify(content ?? "");
}
