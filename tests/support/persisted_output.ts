/**
 * Hermes's persisted-output block as Hermes writes it (`tools/tool_result_storage.py`:
 * `generate_preview`, `_build_persisted_message`), and generated test runs long enough to be
 * saved, for the tests of saved outputs.
 */
import type { SeededRandom } from "../../src/sample/random.ts";

/** Hermes's preview: the output up to its last newline within `most` characters. */
function preview(content: string, most: number): { text: string; more: boolean } {
  if (content.length <= most) return { text: content, more: false };
  const lastNewline = content.lastIndexOf("\n", most - 1);
  return {
    text: content.slice(0, lastNewline + 1 > most / 2 ? lastNewline + 1 : most),
    more: true,
  };
}

/** The block Hermes puts in place of `content` saved at `path` (sizes in code points). */
export function persistedBlock(content: string, path: string, most = 1500): string {
  const size = [...content].length;
  const { text, more } = preview(content, most);
  return "<persisted-output>\n" +
    `This tool result was too large (${size.toLocaleString("en-US")} characters, ` +
    `${(size / 1024).toFixed(1)} KB).\nFull output saved to: ${path}\n` +
    "Use the read_file tool with offset and limit to access specific sections of this output.\n" +
    "Recovery: page through the saved file with read_file (offset/limit) or process it with " +
    "execute_code — do NOT re-request the same data from the remote API; the full result is " +
    `already on disk.\n\nPreview (first ${text.length} chars):\n` + text +
    (more ? "\n..." : "") + "\n</persisted-output>";
}

/** A test run's output: many progress lines, then (when it failed) its failures and its tally. */
export function testRun(random: SeededRandom, failed: number): string {
  const lines: string[] = [];
  const files = random.range(30, 90);
  for (let i = 0; i < files; i++) {
    lines.push(`tests/test_${random.hex(4)}.py ${".".repeat(random.range(5, 60))} [${i}%] 🙂`);
  }
  for (let i = 0; i < failed; i++) {
    lines.push(`FAILED tests/test_ledger.py::test_case_${i} - AssertionError: ${random.hex(6)}`);
  }
  const passed = random.range(50, 400);
  lines.push(
    failed > 0 ? `${failed} failed, ${passed} passed in 3.21s` : `${passed} passed in 2.02s`,
  );
  return lines.join("\n");
}
