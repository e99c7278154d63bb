/** Golden outputs: written once, then any changed byte fails the check and names the window. */
import assert from "node:assert/strict";
import { checkGolden, readManifest, writeGolden } from "../../src/bench/golden.ts";
import { buildWindows, GOLDEN_SPECS } from "../../src/bench/window_spec.ts";
import { runVcc, runVccOnStore, tempStore } from "../support/vcc_harness.ts";

const SPECS = GOLDEN_SPECS.filter((spec) => spec.targetTokens <= 12_000);

async function freshGolden(): Promise<string> {
  const dir = Deno.makeTempDirSync();
  const specs = new Map(SPECS.map((spec) => [spec.id, spec]));
  await writeGolden({ dir, private: false }, buildWindows(SPECS), (id) => specs.get(id));
  return dir;
}

Deno.test("checkGolden() passes on what writeGolden() froze", async () => {
  const dir = await freshGolden();
  const verdicts = await checkGolden(dir, buildWindows);
  assert.deepEqual(verdicts.map((v) => v.status), SPECS.map(() => "same"));
  const manifest = await readManifest(dir);
  assert.ok(manifest.windows.every((entry) => /^[0-9a-f]{64}$/.test(entry.outputSha256)));
});

Deno.test("checkGolden() names the window whose output changed by one byte", async () => {
  const dir = await freshGolden();
  const victim = SPECS[1]!.id;
  const path = `${dir}/${victim}.md`;
  const text = Deno.readTextFileSync(path);
  Deno.writeTextFileSync(path, text.slice(0, 40) + (text[40] === "a" ? "b" : "a") + text.slice(41));
  const run = await runVcc(["bench", "--check-golden", "--golden-dir", dir]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, new RegExp(`^  CHANGED ${victim}: file-changed$`, "m"));
  assert.match(run.stdout, new RegExp(`^${SPECS.length - 1}/${SPECS.length} golden windows`));
});

Deno.test("checkGolden() tells a changed output from a changed input", async () => {
  const dir = await freshGolden();
  const manifest = JSON.parse(Deno.readTextFileSync(`${dir}/manifest.json`));
  manifest.windows[0].outputSha256 = "0".repeat(64);
  manifest.windows[1].spec.seed += 1;
  Deno.writeTextFileSync(`${dir}/manifest.json`, JSON.stringify(manifest));
  const verdicts = await checkGolden(dir, buildWindows);
  assert.deepEqual(verdicts.slice(0, 2).map((v) => v.status), ["output-changed", "input-changed"]);
});

Deno.test("vcc bench --write-golden --db freezes stored windows privately, and checks them", async () => {
  const store = tempStore();
  const cache = Deno.makeTempDirSync();
  const args = ["bench", "--db", store.path, "--context-tokens", "32000"];
  const write = await runVccOnStore(store.path, [...args, "--write-golden"], cache);
  assert.equal(write.code, 0, write.stderr);
  const dir = `${cache}/vcc/golden/db`;
  for (const entry of Deno.readDirSync(dir)) {
    assert.equal(Deno.statSync(`${dir}/${entry.name}`).mode! & 0o777, 0o600, entry.name);
  }
  const check = await runVccOnStore(store.path, [...args, "--check-golden"], cache);
  assert.equal(check.code, 0, check.stdout);
  assert.match(check.stdout, /^(\d+)\/\1 golden windows byte-identical/);
});

Deno.test("the committed golden manifest matches this checkout (vcc bench --check-golden)", async () => {
  const run = await runVcc(["bench", "--check-golden"]);
  assert.equal(run.code, 0, `${run.stdout}\nregenerate with: deno task golden`);
});

Deno.test("vcc bench without an action says what to choose", async () => {
  const run = await runVcc(["bench", "--json"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /choose --write-golden or --check-golden/);
});
