/**
 * The whole outputs behind Hermes's persisted-output blocks. A result too large to keep is saved
 * to a file, one per call (0.22: `cache/spillover/` in Hermes's home, the home `state.db` lies
 * in; 0.19: a `hermes-results` temporary folder), and replaced in the conversation by a block that
 * previews its start. What the result ended with (a command's exit code, a test run's tally and
 * failures) is only in that file, so the store's reader reads it, read-only: a file is taken as a
 * block's output only when it starts with the block's preview and has the size the block states.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import {
  persistedOutput,
  SAVED_OUTPUT_FIELD,
  SPILLOVER_DIR,
  TEMPORARY_RESULTS_DIR,
} from "../core/mod.ts";

// The most bytes read for one saved output, and for one window's.
const MOST_FILE_BYTES = 8 * 1024 * 1024;
const MOST_WINDOW_BYTES = 32 * 1024 * 1024;

/**
 * `window` with each tool message that is a persisted-output block given the whole output Hermes
 * saved for it (`SAVED_OUTPUT_FIELD`), where that file is found beside the store at `storePath`
 * or where a 0.19 Hermes saved it, and holds what the block previews; other messages as they are.
 * Never throws: a file that is missing, too large or unreadable leaves its block as it is.
 */
export function withSavedOutputs(window: readonly unknown[], storePath: string): unknown[] {
  const spillover = join(dirname(storePath), SPILLOVER_DIR);
  let room = MOST_WINDOW_BYTES;
  return window.map((message) => {
    if (!hasTextContent(message)) return message;
    const block = persistedOutput(message.content);
    if (block === undefined || block.preview === "") return message;
    for (const path of savedPlaces(block.path, block.host, spillover)) {
      const bytes = savedBytes(path, Math.min(room, MOST_FILE_BYTES));
      if (bytes === undefined) continue;
      const text = new TextDecoder().decode(bytes);
      if (!text.startsWith(block.preview)) continue;
      if (block.size !== undefined && codePoints(text) !== block.size) continue;
      room -= bytes.length;
      return { ...message, [SAVED_OUTPUT_FIELD]: text };
    }
    return message;
  });
}

// Which role a block stands in is for the projector to judge: it reads saved outputs of results
// only.
function hasTextContent(message: unknown): message is { content: string } {
  return typeof message === "object" && message !== null &&
    typeof (message as Record<string, unknown>).content === "string";
}

/**
 * Where the output behind a block may be, most direct first: the host's copy the block names, the
 * file of the same name in the store's home, and the path the block names when it is one of
 * Hermes's folders for saved outputs. No other file is read.
 */
function savedPlaces(path: string, host: string | undefined, spillover: string): string[] {
  const inSpillover = join(spillover, basename(host ?? path));
  const places = [host, inSpillover, path].filter((place): place is string =>
    place !== undefined && (basename(dirname(place)) === TEMPORARY_RESULTS_DIR ||
      dirname(place).endsWith(`/${SPILLOVER_DIR}`))
  );
  return [...new Set(places)];
}

/** A regular file's bytes when it holds at most `most`; undefined when it cannot be read. */
function savedBytes(path: string, most: number): Uint8Array | undefined {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || info.size > most) return undefined;
    const bytes = Deno.readFileSync(path);
    return bytes.length > most ? undefined : bytes;
  } catch {
    return undefined;
  }
}

/** How many code points `text` holds: the size Hermes (Python) states. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) pairs++;
  }
  return text.length - pairs;
}
