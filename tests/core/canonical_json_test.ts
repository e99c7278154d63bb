/** The canonical text of arguments: key order never matters, and no depth or size can throw. */
import assert from "node:assert/strict";
import { canonicalJson, MAX_CHARS, MAX_DEPTH } from "../../src/core/canonical_json.ts";

Deno.test("canonicalJson() writes keys sorted, at every level", () => {
  assert.equal(
    canonicalJson({ z: 1, a: { y: [true, null, "s"], b: 2 } }),
    '{"a":{"b":2,"y":[true,null,"s"]},"z":1}',
  );
  assert.equal(canonicalJson({ b: 1, a: 2 }), canonicalJson({ a: 2, b: 1 }));
});

Deno.test("canonicalJson() writes 100,000 levels of nesting without throwing", () => {
  let deep: unknown = "leaf";
  for (let level = 0; level < 100_000; level++) deep = level % 2 ? [deep] : { k: deep };
  const text = canonicalJson(deep);
  assert.ok(text.includes('"…"'), "levels past the limit are elided");
  assert.equal(text.split("[").length + text.split("{").length - 2, MAX_DEPTH);
});

Deno.test("canonicalJson() stops growing at its size limit", () => {
  const wide = Array.from({ length: 300_000 }, (_, index) => `value ${index}`);
  assert.equal(canonicalJson(wide).length, MAX_CHARS);
});

Deno.test("canonicalJson() writes flat arguments in any key order as the sorted record", () => {
  // Generated records: keys of arguments and odd ones (digits, unicode, quotes), in random order,
  // with every kind of primitive value.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const keys = ["path", "command", "offset", "limit", "10", "2", "Zeta", "ä", 'q"uote', "a b", ""];
  const values = [
    "x",
    "",
    'line\n"quoted"\t\\',
    "\u2028 é 😀",
    0,
    -0,
    1.5e-7,
    1e21,
    -42,
    true,
    false,
    null,
  ];
  for (let round = 0; round < 300; round++) {
    const chosen = keys.filter(() => next() < 0.5).sort(() => next() - 0.5);
    const record: Record<string, unknown> = {};
    for (const key of chosen) record[key] = values[Math.floor(next() * values.length)];
    const sorted = [...chosen].sort();
    const expected = `{${
      sorted.map((key) => `${JSON.stringify(key)}:${JSON.stringify(record[key])}`).join(",")
    }}`;
    assert.equal(canonicalJson(record), expected, JSON.stringify(chosen));
  }
  assert.equal(canonicalJson({ content: "x".repeat(MAX_CHARS + 10) }).length, MAX_CHARS);
});
