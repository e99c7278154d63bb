/** One unit cut from a newline-delimited byte stream by {@linkcode LineSplitter}. */
export type Frame =
  | { readonly kind: "line"; readonly bytes: Uint8Array }
  | {
    readonly kind: "oversized";
    /** Length of the whole line in bytes (its newline excluded). */
    readonly length: number;
    /** The line's first bytes, kept so a request id can still be recovered. */
    readonly head: Uint8Array;
  };

/** Bytes of an oversized line that {@linkcode LineSplitter} keeps for {@linkcode Frame} `head`. */
export const OVERSIZED_HEAD_BYTES = 1024;

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into newline-terminated lines without decoding it, so a UTF-8 sequence cut
 * between two chunks stays intact. Chunks of one line are joined once, when the line ends. A line
 * longer than `maxLineBytes` is not buffered: its bytes are counted and dropped, and it comes out
 * as an `oversized` frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * const splitter = new LineSplitter(1024);
 * const frames = [...splitter.push(bytes('{"a":1}\n{"b"')), ...splitter.push(bytes(":2}\n"))];
 * assert.deepEqual(frames, [
 *   { kind: "line", bytes: bytes('{"a":1}') },
 *   { kind: "line", bytes: bytes('{"b":2}') },
 * ]);
 * ```
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  #parts: Uint8Array[] = [];
  #length = 0;
  #oversized = false;

  /** @param maxLineBytes the longest line, in bytes, that is returned whole */
  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds one chunk and yields every line it completes. */
  *push(chunk: Uint8Array): Generator<Frame> {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.#append(chunk.subarray(start, end));
      yield this.#take();
      start = end + 1;
    }
    if (start < chunk.length) this.#append(chunk.slice(start));
  }

  /** Ends the stream: yields the last line if it had no newline. */
  *finish(): Generator<Frame> {
    if (this.#length > 0 || this.#oversized) yield this.#take();
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#length += bytes.length;
    if (this.#oversized) return;
    this.#parts.push(bytes);
    if (this.#length > this.#maxLineBytes) {
      this.#parts = [prefix(this.#parts, OVERSIZED_HEAD_BYTES)];
      this.#oversized = true;
    }
  }

  #take(): Frame {
    const frame: Frame = this.#oversized
      ? { kind: "oversized", length: this.#length, head: this.#parts[0] ?? new Uint8Array() }
      : { kind: "line", bytes: joined(this.#parts, this.#length) };
    this.#parts = [];
    this.#length = 0;
    this.#oversized = false;
    return frame;
  }
}

function prefix(parts: readonly Uint8Array[], limit: number): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    for (const byte of part.subarray(0, limit - out.length)) out.push(byte);
    if (out.length === limit) break;
  }
  return new Uint8Array(out);
}

function joined(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
