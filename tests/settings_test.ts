/** One description of the plugin's settings: `plugin/settings.json`, which the plugin and vcc read,
 * and the README's table of `context.vcc` keys state the same keys, defaults and ranges. */
import assert from "node:assert/strict";
import { VCC_SETTINGS } from "../src/compaction/mod.ts";

const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));

/** The README's `context.vcc` table: key → [default, range] cells. */
function readmeSettings(): Map<string, [string, string]> {
  const rows = new Map<string, [string, string]>();
  for (const line of readme.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const key = /^`(\w+)`$/.exec(cells[1] ?? "")?.[1];
    if (key && cells.length === 6) rows.set(key, [cells[2]!, cells[3]!]);
  }
  return rows;
}

const number = (text: string) => Number(text.replaceAll(",", ""));

Deno.test("the README's settings table states the defaults and ranges of settings.json", () => {
  const rows = readmeSettings();
  assert.deepEqual([...rows.keys()], Object.keys(VCC_SETTINGS));
  for (const [key, setting] of Object.entries(VCC_SETTINGS)) {
    const [defaultCell, rangeCell] = rows.get(key)!;
    if (setting.type === "bool") {
      assert.deepEqual([defaultCell, rangeCell], [String(setting.default), "bool"], key);
    } else if (setting.type === "str") {
      assert.deepEqual([defaultCell, rangeCell], [setting.default ?? "—", "path"], key);
    } else {
      const [low, high] = rangeCell.split("–").map(number);
      assert.deepEqual([number(defaultCell), low, high], [
        setting.default,
        setting.low,
        setting.high,
      ], key);
    }
  }
});
