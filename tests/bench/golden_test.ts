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

Deno.test("vcc bench golden --check names the window whose output changed and shows the diff", async () => {
  const dir = await freshGolden();
  const victim = SPECS[1]!.id;
  const path = `${dir}/${victim}.md`;
  const lines = Deno.readTextFileSync(path).split("\n");
  const line = lines.findIndex((text) => text.startsWith("- [#"));
  const original = lines[line]!;
  lines[line] = `${original} (edited)`;
  Deno.writeTextFileSync(path, lines.join("\n"));
  const run = await runVcc(["bench", "golden", "--check", "--golden-dir", dir]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, new RegExp(`^  CHANGED ${victim}: file-changed$`, "m"));
  assert.match(run.stdout, new RegExp(`^${SPECS.length - 1}/${SPECS.length} golden windows`));
  const shown = run.stdout.split("\n").map((text) => text.slice(4));
  const removed = shown.indexOf(`-${original} (edited)`);
  assert.ok(removed > 0, run.stdout);
  assert.equal(shown[removed + 1], `+${original}`);
  assert.match(shown[removed - 1]!, /^[ @]/);
});

Deno.test("vcc bench --check-golden is vcc bench golden --check", async () => {
  const dir = await freshGolden();
  const victim = SPECS[0]!.id;
  Deno.writeTextFileSync(`${dir}/${victim}.md`, "stale\n");
  const flags = await runVcc(["bench", "--check-golden", "--golden-dir", dir]);
  const subcommand = await runVcc(["bench", "golden", "--check", "--golden-dir", dir]);
  assert.equal(flags.code, 1);
  assert.match(flags.stdout, /^ {4}-stale$/m);
  const timeless = (text: string) => text.replace(/\(projection median .*\)/, "");
  assert.equal(timeless(flags.stdout), timeless(subcommand.stdout));
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
  const manifest = await readManifest(dir);
  const victim = manifest.windows[0]!;
  const stored = Deno.readTextFileSync(`${dir}/${victim.output}`);
  Deno.writeTextFileSync(`${dir}/${victim.output}`, `${stored}\nedited`);
  const changed = await runVccOnStore(store.path, [...args, "--check-golden"], cache);
  assert.equal(changed.code, 1);
  const diffPath = /^ {4}diff \(private\): (.+)$/m.exec(changed.stdout)?.[1];
  assert.ok(diffPath, changed.stdout);
  const quoted = stored.split("\n").find((line) => line.startsWith("[#"));
  assert.ok(
    quoted !== undefined && !changed.stdout.includes(quoted),
    "no stored text on the console",
  );
  assert.equal(Deno.statSync(diffPath).mode! & 0o777, 0o600);
  assert.match(Deno.readTextFileSync(diffPath), /^-edited$/m);
});

Deno.test("the committed golden manifest matches this checkout (vcc bench golden --check)", async () => {
  const run = await runVcc(["bench", "golden", "--check"]);
  assert.equal(run.code, 0, `${run.stdout}\nregenerate with: deno task golden`);
});

Deno.test("vcc bench and vcc bench golden without an action say what to choose", async () => {
  const bench = await runVcc(["bench", "--json"]);
  assert.equal(bench.code, 2);
  assert.match(bench.stderr, /choose --write-golden or --check-golden, or a subcommand/);
  const golden = await runVcc(["bench", "golden"]);
  assert.equal(golden.code, 2);
  assert.match(golden.stderr, /choose --write or --check/);
});
