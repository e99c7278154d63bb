/**
 * `src/anchors/_python_unicode.ts` still matches the Python of every installed Hermes that has the
 * anchor builder: the Unicode classes the fast anchor index relies on are that Python's.
 */
import assert from "node:assert/strict";
import { PYTHON_UNICODE_VERSION } from "../../src/anchors/_python_unicode.ts";
import { foldPythonClasses } from "../../src/anchors/_python_text.ts";
import {
  type CodePointRanges,
  PYTHON_UNICODE_MODULE_PATH,
  readPythonUnicode,
  renderPythonUnicodeModule,
} from "../../src/tooling/python_unicode.ts";
import { findAnchorReferences } from "../anchors/anchor_reference.ts";

const references = await findAnchorReferences();

Deno.test({
  name: references.length > 0
    ? "python_unicode.ts matches the Python Hermes runs on"
    : "python_unicode.ts matches the Python Hermes runs on (ignored: no installed Hermes has " +
      "_build_anchor_index; run .ci/hermes.sh)",
  ignore: references.length === 0,
  async fn(t) {
    const module = await Deno.readTextFile(
      new URL(`../../${PYTHON_UNICODE_MODULE_PATH}`, import.meta.url),
    );
    for (const { name, python } of references) {
      const tables = await readPythonUnicode(python);
      // The tables follow one Unicode version. A Python with another (3.14 has 16.0.0) classifies
      // some characters differently, so vcc's anchor index could differ from Hermes's builder
      // there: the plugin compares the version `vcc serve` reports with its Python's and keeps
      // fast anchors off on such a Python (tests/plugin/test_fast_anchors.py). The tables are
      // not that Python's by design, so the comparison is shown as ignored, not failed.
      const otherUnicode = tables.unicode !== PYTHON_UNICODE_VERSION;
      await t.step({
        name: otherUnicode
          ? `${name} (ignored: its Unicode ${tables.unicode} is not the tables' ` +
            `${PYTHON_UNICODE_VERSION}; the plugin keeps fast anchors off on it)`
          : name,
        ignore: otherUnicode,
        fn() {
          // Only the header names the Python patch release.
          const body = (text: string) => text.slice(text.indexOf("\n"));
          assert.equal(body(module), body(renderPythonUnicodeModule(tables)));
          assertFoldsLike(tables);
        },
      });
    }
  },
});

/** foldPythonClasses() puts every non-surrogate code point in the class Python's `re` does. */
function assertFoldsLike(
  tables: { word: CodePointRanges; digit: CodePointRanges; space: CodePointRanges },
): void {
  const expected = new Uint8Array(0x110000).fill(0x83);
  for (
    const [ranges, placeholder] of [[tables.word, 0x81], [tables.digit, 0x80], [
      tables.space,
      0x82,
    ]] as const
  ) {
    for (const [start, end] of ranges) expected.fill(placeholder, start, end + 1);
  }
  const codePoints: number[] = [];
  for (let c = 0x80; c < 0x110000; c++) if (c < 0xd800 || c > 0xdfff) codePoints.push(c);
  let text = "";
  for (let i = 0; i < codePoints.length; i += 4096) {
    text += String.fromCodePoint(...codePoints.slice(i, i + 4096));
  }
  const folded = foldPythonClasses(text).folded;
  assert.equal(folded.length, codePoints.length);
  const wrong = codePoints.filter((c, i) => folded.charCodeAt(i) !== expected[c]);
  assert.deepEqual(wrong.slice(0, 10).map((c) => c.toString(16)), []);
}
