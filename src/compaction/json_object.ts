/** The JSON object `text` encodes (tool arguments, a tool result), or `{}` for anything else. */
export function jsonObject(text: unknown): Record<string, unknown> {
  if (typeof text !== "string") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? value as Record<string, unknown>
      : {};
  } catch {
    return {};
  }
}
