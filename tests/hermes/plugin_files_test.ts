import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { PLUGIN_FILES } from "../../src/hermes/plugin_files.ts";
import { readPluginSources } from "../../src/tooling/embed_plugin.ts";
import { VERSION } from "../../src/version.ts";

const pluginDir = fileURLToPath(new URL("../../plugin/", import.meta.url));

Deno.test("PLUGIN_FILES matches plugin/ (run `deno task embed` after editing the plugin)", async () => {
  assert.deepEqual(PLUGIN_FILES, await readPluginSources(pluginDir));
});

Deno.test("plugin/plugin.yaml carries the version of this vcc", async () => {
  const manifest = await Deno.readTextFile(`${pluginDir}plugin.yaml`);
  assert.equal(/^version:\s*["']?([^"'\s#]+)/m.exec(manifest)?.[1], VERSION);
});
