import assert from "node:assert/strict";
import { priceRequest, textTokens } from "../../src/bench/replay/measure/cache_cost.ts";
import {
  distinctFingerprints,
  fingerprint,
  keptFingerprints,
} from "../../src/bench/replay/measure/error_fingerprint.ts";
import { pairingViolations } from "../../src/bench/replay/measure/tool_pairing.ts";
import { normalized } from "../../src/bench/replay/measure/request_text.ts";
import { searchableText } from "../../src/bench/replay/measure/request_search.ts";

Deno.test("priceRequest() bills the shared prefix at 0.10x and the rest at 1.25x", () => {
  const first = priceRequest("", "abcd".repeat(10)); // 10 tokens, none cached
  assert.deepEqual(first, { tokens: 10, cachedTokens: 0, cost: 12.5 });
  const next = priceRequest("abcd".repeat(10), "abcd".repeat(10) + "efgh".repeat(2));
  assert.deepEqual(next, { tokens: 12, cachedTokens: 10, cost: 10 * 0.1 + 2 * 1.25 });
  const broken = priceRequest("xbcd" + "abcd".repeat(9), "abcd".repeat(10));
  assert.equal(broken.cachedTokens, 0);
  assert.equal(textTokens("错误"), 1.5); // six UTF-8 bytes
});

Deno.test("pairingViolations() finds calls without results, orphans and double answers", () => {
  assert.deepEqual(
    pairingViolations([
      { role: "assistant", tool_calls: [{ id: "a" }, { id: "b" }] },
      { role: "tool", tool_call_id: "a" },
      { role: "tool", tool_call_id: "a" },
      { role: "user", content: "next" },
      { role: "tool", tool_call_id: "c" },
      { role: "assistant", tool_calls: [{ id: "d" }] },
      { role: "tool", tool_call_id: "d" },
    ]),
    [
      { callId: "a", problem: "answered twice" },
      { callId: "b", problem: "no result" },
      { callId: "c", problem: "orphan result" },
    ],
  );
});

Deno.test("fingerprint() masks ids, hex runs and numbers, and folds whitespace", () => {
  const a = "ERROR [w-3] batch B-4471 checksum mismatch: expected 9f3a1c07 got 1be0d442";
  const b = "ERROR [w-7] batch B-4480  checksum mismatch: expected 00aa11bb got deadbeef";
  assert.equal(
    fingerprint(a),
    "ERROR [w-<n>] batch B-<n> checksum mismatch: expected <hex> got <hex>",
  );
  assert.equal(fingerprint(b), fingerprint(a).replace("<hex> got <hex>", "<hex> got deadbeef"));
  assert.equal(
    fingerprint("[错误] request_id=7c1e0a2b-1c2d-4e3f-a456-0123456789ab"),
    "[错误] request_id=<uuid>",
  );
  assert.deepEqual(distinctFingerprints([a, a.replace("4471", "12")]), [fingerprint(a)]);
  assert.deepEqual(keptFingerprints([fingerprint(a)], `… ${b.replace("deadbeef", "12ab34cd")} …`), [
    fingerprint(a),
  ]);
});

Deno.test("normalized() replaces what changes between runs of the same story", () => {
  const text =
    '/run/x/home {"session_id": "proc_0123456789ab", "pid": 4711} 20261201_213921_bc5167 ' +
    '"duration_seconds": 0.03 2 passed in 0.31s --- a\\t2026-12-01 21:25:56.025441256 +0000 ' +
    '\\"duration_seconds\\": 0.07';
  assert.equal(
    normalized(text, "/run/x"),
    '<run>/home {"session_id": "proc_<id>", "pid": <pid>} <session> "duration_seconds": <s> ' +
      '2 passed in <s>s --- a\\t<mtime> \\"duration_seconds\\": <s>',
  );
});

Deno.test("searchableText() reads JSON outputs and call arguments as written", () => {
  const text = searchableText({
    messages: [
      { role: "tool", content: JSON.stringify({ output: 'q{shard="4"} 18\nnext' }) },
      {
        role: "assistant",
        tool_calls: [{ function: { arguments: JSON.stringify({ code: 'print("x")' }) } }],
      },
    ],
  });
  assert.ok(text.includes('q{shard="4"} 18'));
  assert.ok(text.includes('print("x")'));
});
