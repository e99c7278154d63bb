/**
 * The plugin vcc carries is `plugin/` itself: every file, byte for byte, also from the bundle that
 * `deno task bundle` builds, which is the form a checkout without `main.ts` ships.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PLUGIN_FILES } from "../../src/hermes/_plugin_files.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const pluginDir = join(repo, "plugin");

/** The regular files of a directory, by name, as bytes. */
async function filesIn(dir: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) files.set(entry.name, await Deno.readFile(join(dir, entry.name)));
  }
  return files;
}

Deno.test("PLUGIN_FILES holds every file of plugin/ and nothing else", async () => {
  const shipped = await filesIn(pluginDir);
  assert.deepEqual(Object.keys(PLUGIN_FILES).sort(), [...shipped.keys()].sort());
  const encoder = new TextEncoder();
  for (const [name, bytes] of shipped) {
    assert.deepEqual(encoder.encode(PLUGIN_FILES[name]), bytes, name);
  }
});

Deno.test("vcc hermes install run from the bundle writes plugin/ byte for byte", async () => {
  const bundle = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "bundle"],
    cwd: repo,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(bundle.code, 0, new TextDecoder().decode(bundle.stderr));
  const home = await Deno.makeTempDir({ prefix: "vcc-hermes-" });
  const install = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(repo, "dist", "vcc.js"), "hermes", "install", "--hermes-home", home],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
  const installed = await filesIn(join(home, "plugins", "vcc"));
  const shipped = await filesIn(pluginDir);
  assert.deepEqual([...installed.keys()].sort(), [...shipped.keys(), "vcc.json"].sort());
  for (const [name, bytes] of shipped) assert.deepEqual(installed.get(name), bytes, name);
  await Deno.remove(home, { recursive: true });
});
