import assert from "node:assert/strict";
import { type Frame, LineSplitter, OVERSIZED_HEAD_BYTES } from "../../src/bridge/_framing.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `chunks` and the end of input; frames as text lines or `oversized(length, head)`. */
function split(chunks: (string | Uint8Array)[], maxLineBytes = 64): string[] {
  const splitter = new LineSplitter(maxLineBytes);
  const frames: Frame[] = [];
  for (const chunk of chunks) {
    frames.push(...splitter.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk));
  }
  frames.push(...splitter.finish());
  return frames.map((frame) =>
    frame.kind === "line"
      ? decoder.decode(frame.bytes)
      : `oversized(${frame.length}, ${decoder.decode(frame.head)})`
  );
}

const euro = encoder.encode("€"); // three bytes

const cases: [string, (string | Uint8Array)[], string[]][] = [
  ["one line per chunk", ['{"a":1}\n', '{"b":2}\n'], ['{"a":1}', '{"b":2}']],
  ["several lines in one chunk", ["a\nb\nc\n"], ["a", "b", "c"]],
  ["a line across three chunks", ["ab", "cd", "ef\n"], ["abcdef"]],
  ["a blank line is a line", ["\n\nx\n"], ["", "", "x"]],
  ["the last line without a newline", ["a\nb"], ["a", "b"]],
  ["nothing at all", [], []],
  ["a UTF-8 character cut between chunks", [euro.subarray(0, 1), euro.subarray(1), "\n"], ["€"]],
  ["a line of exactly the limit", [`${"x".repeat(64)}\n`], ["x".repeat(64)]],
  ["a line one byte over the limit", [`${"x".repeat(65)}\nok\n`], [
    "oversized(65, " + "x".repeat(65) + ")",
    "ok",
  ]],
  ["an oversized line across chunks", ["y".repeat(40), "y".repeat(40), "\nok\n"], [
    `oversized(80, ${"y".repeat(80)})`,
    "ok",
  ]],
  ["an oversized last line without a newline", ["z".repeat(70)], [
    `oversized(70, ${"z".repeat(70)})`,
  ]],
];

for (const [name, chunks, expected] of cases) {
  Deno.test(`LineSplitter: ${name}`, () => {
    assert.deepEqual(split(chunks), expected);
  });
}

Deno.test("LineSplitter keeps only the head of an oversized line", () => {
  const big = "h".repeat(5000);
  const [frame] = [...new LineSplitter(2048).push(encoder.encode(`${big}\n`))];
  assert.equal(frame?.kind, "oversized");
  assert.ok(frame?.kind === "oversized");
  assert.equal(frame.length, 5000);
  assert.equal(frame.head.length, OVERSIZED_HEAD_BYTES);
});
