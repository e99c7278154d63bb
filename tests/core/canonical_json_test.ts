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
