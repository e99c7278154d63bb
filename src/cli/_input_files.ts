import { UsageError } from "./_errors.ts";

const BYTE_ORDER_MARK = "\ufeff";

/**
 * Reads an input file as text, or standard input for `-`, without a leading byte order mark. A
 * file that cannot be read becomes the one-line error of {@linkcode cannotRead}.
 */
export async function readInputText(path: string): Promise<string> {
  let text: string;
  try {
    text = path === "-"
      ? await new Response(Deno.stdin.readable).text()
      : await Deno.readTextFile(path);
  } catch (error) {
    throw cannotRead(path === "-" ? "standard input" : path, error);
  }
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(BYTE_ORDER_MARK.length) : text;
}

/** `cannot read PATH: REASON` for an error reading or listing `path`, as a {@linkcode UsageError}. */
export function cannotRead(path: string, error: unknown): UsageError {
  const reason = error instanceof Deno.errors.NotFound
    ? "no such file"
    : error instanceof Deno.errors.PermissionDenied
    ? "permission denied"
    : error instanceof Deno.errors.IsADirectory
    ? "is a directory"
    : error instanceof Deno.errors.NotADirectory
    ? "a part of the path is not a directory"
    : systemReason(error);
  return new UsageError(`cannot read ${path}: ${reason}`);
}

/** The system's words for an error, without Deno's `(os error N): call 'path'` tail. */
function systemReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const words = message.replace(/\s*\(os error \d+\).*$/s, "");
  return words.charAt(0).toLowerCase() + words.slice(1);
}
