/**
 * `config.yaml`'s bytes as text and back without loss: a UTF-8 byte order mark is set aside and
 * put back, and bytes that are not UTF-8 are refused instead of replaced, so every byte an edit
 * does not touch is written back as it was read.
 *
 * @module
 */
import { ConfigUnreadable } from "./config_errors.ts";

/** A config file's content as text, and whether the bytes began with a byte order mark. */
export interface ConfigText {
  readonly text: string;
  readonly bom: boolean;
}

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

/**
 * The text of `bytes`, which must be UTF-8 (as Hermes reads `config.yaml`). Throws
 * {@linkcode ConfigUnreadable} naming the first byte that is not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeConfig } from "./config_text.ts";
 * assert.deepEqual(decodeConfig(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61)), { text: "a", bom: true });
 * ```
 */
export function decodeConfig(bytes: Uint8Array): ConfigText {
  const bom = BOM.every((byte, i) => bytes[i] === byte);
  const body = bom ? bytes.subarray(BOM.length) : bytes;
  const bad = firstNonUtf8(body);
  if (bad !== undefined) {
    const line = body.subarray(0, bad).filter((byte) => byte === 0x0a).length + 1;
    const hex = body[bad]!.toString(16).toUpperCase().padStart(2, "0");
    throw new ConfigUnreadable(`byte 0x${hex} on line ${line} is not UTF-8`);
  }
  return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(body), bom };
}

/** The bytes of `config`: its text as UTF-8, after the byte order mark it was read with. */
export function encodeConfig(config: ConfigText): Uint8Array {
  const text = new TextEncoder().encode(config.text);
  if (!config.bom) return text;
  const bytes = new Uint8Array(BOM.length + text.length);
  bytes.set(BOM);
  bytes.set(text, BOM.length);
  return bytes;
}

/**
 * Well-formed UTF-8 byte sequences (Unicode, table 3-7): the range of the lead byte, the length of
 * the sequence, and the range of its second byte (every later byte is 0x80–0xBF).
 */
const SEQUENCES: readonly (readonly [number, number, number, number, number])[] = [
  [0x00, 0x7f, 1, 0, 0],
  [0xc2, 0xdf, 2, 0x80, 0xbf],
  [0xe0, 0xe0, 3, 0xa0, 0xbf],
  [0xe1, 0xec, 3, 0x80, 0xbf],
  [0xed, 0xed, 3, 0x80, 0x9f],
  [0xee, 0xef, 3, 0x80, 0xbf],
  [0xf0, 0xf0, 4, 0x90, 0xbf],
  [0xf1, 0xf3, 4, 0x80, 0xbf],
  [0xf4, 0xf4, 4, 0x80, 0x8f],
];

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstNonUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const sequence = SEQUENCES.find(([low, high]) => lead >= low && lead <= high);
    if (sequence === undefined) return i;
    const [, , length, secondLow, secondHigh] = sequence;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      const [low, high] = k === 1 ? [secondLow, secondHigh] : [0x80, 0xbf];
      if (next === undefined || next < low || next > high) return i;
    }
    i += length;
  }
  return undefined;
}
