/**
 * Hermes's persisted-output block: a tool result too large to keep, replaced by its size, the
 * file the whole output was saved to (the only way back to it) and a preview of its start.
 *
 * @module
 */
import {
  PERSISTED_OUTPUT_CLOSING_TAG,
  PERSISTED_OUTPUT_PATH_WORDS,
  PERSISTED_OUTPUT_TAG,
} from "./hermes.ts";

/** What a persisted-output block says of the result it replaced. */
export interface PersistedOutput {
  /** Where Hermes saved the whole output, as the agent reads it. */
  readonly path: string;
  /**
   * The same file on Hermes's own machine, when the agent's tools run elsewhere (a sandbox that
   * mounts it): the block's ` [host: PATH]` after the path.
   */
  readonly host?: string;
  /** The whole output's size in characters, when the block states it. */
  readonly size?: number;
  /** The start of the result, as the block previews it. */
  readonly preview: string;
}

const PATH = new RegExp(`^${RegExp.escape(PERSISTED_OUTPUT_PATH_WORDS)}(.+)$`, "m");
const HOST = /^(.+?) \[host: (.+)\]$/;
const SIZE = /\(([\d,]{1,20}) characters\b/;
const PREVIEW = /^Preview \(first \d+ chars\):\n/m;
const MORE = "\n...";

/**
 * Reads a persisted-output block; `undefined` when `text` is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { persistedOutput } from "./persisted_output.ts";
 * const block = "<persisted-output>\nThis tool result was too large (52,004 characters, 50.8 KB).\n" +
 *   "Full output saved to: /h/cache/spillover/call_7.txt\nUse the read_file tool …\n\n" +
 *   "Preview (first 5 chars):\nhello\n...\n</persisted-output>";
 * assert.deepEqual(persistedOutput(block), { path: "/h/cache/spillover/call_7.txt", size: 52004, preview: "hello" });
 * const mounted = block.replace("call_7.txt", "call_7.txt [host: /home/u/.hermes/cache/spillover/call_7.txt]");
 * assert.equal(persistedOutput(mounted)?.host, "/home/u/.hermes/cache/spillover/call_7.txt");
 * ```
 */
export function persistedOutput(text: string): PersistedOutput | undefined {
  if (!text.startsWith(PERSISTED_OUTPUT_TAG)) return undefined;
  const stated = PATH.exec(text)?.[1]?.trim();
  if (stated === undefined || stated === "") return undefined;
  const [, path = stated, host] = HOST.exec(stated) ?? [];
  const size = SIZE.exec(text)?.[1];
  const start = PREVIEW.exec(text);
  let preview = start ? text.slice(start.index + start[0].length) : "";
  if (preview.endsWith(PERSISTED_OUTPUT_CLOSING_TAG)) {
    preview = preview.slice(0, -PERSISTED_OUTPUT_CLOSING_TAG.length).replace(/\n$/, "");
  }
  if (preview.endsWith(MORE)) preview = preview.slice(0, -MORE.length);
  return {
    path,
    ...(host === undefined ? {} : { host }),
    ...(size === undefined ? {} : { size: Number(size.replaceAll(",", "")) }),
    preview,
  };
}

/**
 * How a line points at the saved output, in the block's own words: `Full output saved to: PATH
 * (52,004 characters)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { savedPointer } from "./persisted_output.ts";
 * assert.equal(savedPointer({ path: "/h/call_7.txt", size: 52004 }), "Full output saved to: /h/call_7.txt (52,004 characters)");
 * ```
 */
export function savedPointer(saved: { readonly path: string; readonly size?: number }): string {
  const size = saved.size === undefined
    ? ""
    : ` (${String(saved.size).replace(/\B(?=(\d{3})+$)/g, ",")} characters)`;
  return `${PERSISTED_OUTPUT_PATH_WORDS}${saved.path}${size}`;
}
