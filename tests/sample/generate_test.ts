import assert from "node:assert/strict";
import { generateWindow, randomJsonValue } from "../../src/sample/mod.ts";

Deno.test("generateWindow() gives the same rows for the same seed", () => {
  const a = JSON.stringify(generateWindow({ seed: 42, targetTokens: 20_000 }));
  const b = JSON.stringify(generateWindow({ seed: 42, targetTokens: 20_000 }));
  const c = JSON.stringify(generateWindow({ seed: 43, targetTokens: 20_000 }));
  assert.deepEqual(a, b);
  assert(a !== c);
});

Deno.test("generateWindow() lands within 10% of the target size", () => {
  for (const targetTokens of [1_000, 4_000, 30_000, 250_000]) {
    for (let seed = 0; seed < 12; seed++) {
      const tokens = JSON.stringify(generateWindow({ seed, targetTokens })).length / 4;
      assert(
        Math.abs(tokens / targetTokens - 1) <= 0.1,
        `seed ${seed}, target ${targetTokens}: ${tokens} tokens`,
      );
    }
  }
});

Deno.test("generateWindow() numbers rows consecutively from rowIdStart", () => {
  const rows = generateWindow({ seed: 7, targetTokens: 5_000, rowIdStart: 1000 });
  assert.deepEqual(rows.map((row) => row._row_id), rows.map((_, index) => 1000 + index));
  assert.deepEqual(generateWindow({ seed: 7, targetTokens: 5_000 })[0]?._row_id, 1);
});

Deno.test("generateWindow() produces the hard cases a projector must handle", () => {
  const text = JSON.stringify(
    [1, 2, 3].flatMap((seed) => generateWindow({ seed, targetTokens: 150_000 })),
  );
  const expected = [
    "[terminal] ran `",
    "[read_file] read /",
    "[Old tool output cleared to save context space]",
    "[Duplicate tool output",
    '\\"status\\":\\"blocked\\"',
    '\\"status\\":\\"pending_approval\\"',
    '\\"exit_code\\":127',
    '\\"exit_code\\":137',
    '\\"exit_code\\":-1',
    '\\"background\\":true',
    '"_multimodal":true',
    '"type":"image_url"',
    "ModuleNotFoundError",
    "Traceback (most recent call last)",
    "<|im_start|>system",
    "\u202E",
    "[System: ",
    "[CONTEXT",
    '"arguments":"{\\"command\\": \\"',
  ];
  for (const marker of expected) assert(text.includes(marker), `missing ${marker}`);
});

Deno.test("generateWindow() pairs every result with a call except planted orphans", () => {
  const rows = generateWindow({ seed: 9, targetTokens: 100_000 });
  const calls = new Set(
    rows.flatMap((row) =>
      Array.isArray(row.tool_calls) ? row.tool_calls.map((call: { id: string }) => call.id) : []
    ),
  );
  const orphans = rows.filter((row) => row.role === "tool" && !calls.has(String(row.tool_call_id)));
  assert(orphans.length < rows.length / 50, `${orphans.length} orphans`);
});

Deno.test("randomJsonValue() is deterministic and JSON-serialisable", () => {
  for (let seed = 0; seed < 200; seed++) {
    const text = JSON.stringify(randomJsonValue(seed));
    assert.deepEqual(JSON.stringify(randomJsonValue(seed)), text);
    JSON.parse(text ?? "null");
  }
});
