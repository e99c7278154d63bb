/** Python's text semantics in TypeScript: class folding, strip, rstrip and len. */
import assert from "node:assert/strict";
import { foldPythonClasses, pyLength, pyRstrip, pyStrip } from "../../src/anchors/_python_text.ts";

const FOLD_CASES: ReadonlyArray<readonly [string, string, string]> = [
  ["ASCII is unchanged", "src/app.py #12 \t\x1c", "src/app.py #12 \t\x1c"],
  ["letters of any script are \\w", "éßЖ日ㄱ", "\x81\x81\x81\x81\x81"],
  ["decimal digits of any script are \\d", "٣४𝟏", "\x80\x80\x80"],
  ["other numbers are \\w but not \\d", "²½Ⅻ", "\x81\x81\x81"],
  ["marks are not \\w", "\u0301\u093e\u20dd", "\x83\x83\x83"],
  ["Python's non-ASCII whitespace", "\x85\xa0\u1680\u2003\u2028\u3000", "\x82\x82\x82\x82\x82\x82"],
  ["BOM, zero-width space and symbols are none", "\ufeff\u200b😀€", "\x83\x83\x83\x83"],
  ["astral letters", "𝐀𐐀", "\x81\x81"],
  ["lone surrogates are none", "\ud800a\udc00", "\x83a\x83"],
];

Deno.test("foldPythonClasses() gives each character its Python class", async (t) => {
  for (const [name, input, folded] of FOLD_CASES) {
    await t.step(name, () => assert.equal(foldPythonClasses(input).folded, folded));
  }
});

Deno.test("foldPythonClasses() maps folded offsets back to the text", () => {
  const plain = foldPythonClasses("abc é");
  assert.deepEqual([0, 3, 5].map(plain.original), [0, 3, 5]);
  const text = "a😀b𝐀\ud800c";
  const { folded, original } = foldPythonClasses(text);
  assert.equal(folded, "a\x83b\x81\x83c");
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map(original), [0, 1, 3, 4, 6, 7, 8]);
});

Deno.test("foldPythonClasses() folds a long non-ASCII run", () => {
  const text = "日".repeat(100_000);
  assert.equal(foldPythonClasses(text).folded, "\x81".repeat(100_000));
});

Deno.test("pyStrip() removes Python's whitespace only", () => {
  assert.equal(pyStrip(" \t\n\x1c\x1f\x85\xa0\u2000\u3000 a b \u2029\u205f"), "a b");
  assert.equal(pyStrip("\ufeffa\u200b"), "\ufeffa\u200b");
  assert.equal(pyStrip(""), "");
});

Deno.test("pyRstrip() removes trailing characters of the set", () => {
  assert.equal(pyRstrip("a.b.,;:", ".,;:"), "a.b");
  assert.equal(pyRstrip("a. ", ".,;:"), "a. ");
  assert.equal(pyRstrip("...", "."), "");
});

Deno.test("pyLength() counts code points", () => {
  assert.equal(pyLength("abc"), 3);
  assert.equal(pyLength("a😀b"), 3);
  assert.equal(pyLength("\ud800\ud800\udc00\udc00"), 3);
});
