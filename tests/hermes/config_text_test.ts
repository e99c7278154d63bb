import assert from "node:assert/strict";
import { ConfigUnreadable } from "../../src/hermes/config_errors.ts";
import { decodeConfig, encodeConfig } from "../../src/hermes/config_text.ts";
import { SeededRandom } from "../../src/sample/mod.ts";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Bytes at the edges of UTF-8: continuations; ASCII, leads of every length, invalid leads. */
const CONTINUATIONS = [0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf];
const OTHERS = [0x0a, 0x61, 0x7f, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf1, 0xf4, 0xf5];

function randomBytes(random: SeededRandom): Uint8Array {
  return Uint8Array.from({ length: 1 + random.int(6) }, () => {
    const from = random.chance(0.5) ? CONTINUATIONS : OTHERS;
    return from[random.int(from.length)]!;
  });
}

Deno.test("decodeConfig accepts the UTF-8 a strict decoder accepts, and round-trips it", () => {
  const random = new SeededRandom(11);
  let valid = 0;
  for (let n = 0; n < 10_000; n++) {
    const bytes = randomBytes(random);
    let expected: string | undefined;
    try {
      expected = strict.decode(bytes);
    } catch {
      expected = undefined;
    }
    if (expected === undefined) {
      assert.throws(() => decodeConfig(bytes), ConfigUnreadable, `bytes ${bytes}`);
      continue;
    }
    valid++;
    const config = decodeConfig(bytes);
    assert.equal(config.bom ? `\ufeff${config.text}` : config.text, expected);
    assert.deepEqual(encodeConfig(config), bytes);
  }
  assert.ok(valid > 300, `only ${valid} valid samples`);
});

Deno.test("decodeConfig sets a byte order mark aside and encodeConfig puts it back", () => {
  const bytes = Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0x3a, 0x20, 0x31, 0x0a);
  assert.deepEqual(decodeConfig(bytes), { text: "a: 1\n", bom: true });
  assert.deepEqual(encodeConfig(decodeConfig(bytes)), bytes);
});

Deno.test("decodeConfig names the first byte that is not UTF-8 and its line", () => {
  const latin1 = Uint8Array.of(...new TextEncoder().encode("a: 1\n# caf"), 0xe9, 0x0a);
  assert.throws(() => decodeConfig(latin1), /byte 0xE9 on line 2 is not UTF-8/);
});
