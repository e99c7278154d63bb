/**
 * The one-line stubs Hermes puts in place of old tool results before the summary step
 * (hermes-internals §3): generated windows use them to look pruned, and previews use them to
 * prune the way Hermes would.
 *
 * @module
 */

/** `1234567` → `1,234,567`, independent of the locale. */
export function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function countLines(text: string): number {
  return text === "" ? 0 : text.split("\n").length;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/**
 * Whether `text` already is a stub, which Hermes never prunes again: it starts with `[`, says
 * ` chars)` and is shorter than 400 characters.
 */
export function isPruningStub(text: string): boolean {
  return text.startsWith("[") && text.includes(" chars)") && text.length < 400;
}

/** The stub Hermes writes for a result of `tool` called with `args`. */
export function pruningStub(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  content: string,
): string {
  const text = (key: string) => String(args[key] ?? "");
  switch (tool) {
    case "terminal": {
      const exit = /"exit_code"\s*:\s*(-?\d+)/.exec(content)?.[1] ?? "?";
      const output = /^\{/.test(content) ? outputOf(content) : content;
      return `[terminal] ran \`${clip(text("command"), 80)}\` -> exit ${exit}, ${
        countLines(output)
      } lines output`;
    }
    case "read_file":
      return `[read_file] read ${text("path")} from line ${args.offset ?? 1} (${
        groupDigits(content.length)
      } chars)`;
    case "write_file":
      return `[write_file] wrote to ${text("path")} (${countLines(text("content"))} lines)`;
    case "search_files": {
      const total = /"total_count"\s*:\s*(\d+)/.exec(content)?.[1] ?? "0";
      return `[search_files] ${args.target ?? "content"} search for '${text("pattern")}' in ${
        args.path ?? "."
      } -> ${total} matches`;
    }
    case "patch":
      return `[patch] ${args.mode ?? "replace"} in ${text("path")} (${
        groupDigits(content.length)
      } chars result)`;
    case "execute_code":
      return `[execute_code] \`${clip(text("code"), 60)}\` (${
        countLines(outputOf(content))
      } lines output)`;
    case "process":
      return `[process] ${text("action")} session=${text("session_id")}`;
    default: {
      const pairs = Object.entries(args)
        .filter(([, value]) => typeof value === "string" || typeof value === "number")
        .slice(0, 3)
        .map(([key, value]) => ` ${key}=${clip(String(value), 40)}`)
        .join("");
      return `[${tool}]${pairs} (${groupDigits(content.length)} chars result)`;
    }
  }
}

function outputOf(content: string): string {
  try {
    const value: unknown = JSON.parse(content);
    if (value !== null && typeof value === "object" && "output" in value) {
      return String((value as { output: unknown }).output ?? "");
    }
  } catch {
    // Not JSON: the content is the output.
  }
  return content;
}
