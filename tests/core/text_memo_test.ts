/**
 * A remembered function gives what the function gives, for every text in any order: repeats,
 * texts whose value is `undefined`, texts too long to remember, and more texts than the memo holds.
 */
import assert from "node:assert/strict";
import { textMemo } from "../../src/core/text_memo.ts";
import { SeededRandom } from "../../src/sample/random.ts";

const work = (text: string) => (text.length % 3 === 0 ? undefined : `${text.length}:${text}`);

function counted(most: number, mostChars: number) {
  const worked = new Map<string, number>();
  const remembered = textMemo(
    (text: string) => {
      worked.set(text, (worked.get(text) ?? 0) + 1);
      return work(text);
    },
    most,
    mostChars,
  );
  return { remembered, worked };
}

Deno.test("a remembered function returns what the function returns, past the memo's size too", () => {
  for (const seed of [1, 2, 3]) {
    const random = new SeededRandom(seed);
    const { remembered } = counted(8, 6);
    for (let call = 0; call < 400; call++) {
      const text = "x".repeat(random.range(0, 9)) + String(random.range(0, 5));
      assert.equal(remembered(text), work(text), text);
    }
  }
});

Deno.test("a short text is worked once while the memo holds it, a long one every time", () => {
  const { remembered, worked } = counted(8, 6);
  const texts = ["ab", "abc", "", "abcdef", "abcdefg"];
  for (let round = 0; round < 5; round++) for (const text of texts) remembered(text);
  assert.deepEqual(Object.fromEntries(worked), { ab: 1, abc: 1, "": 1, abcdef: 1, abcdefg: 5 });
});
