import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { PLUGIN_FILES } from "../../src/hermes/plugin_files.ts";
import { readPluginSources } from "../../src/tooling/embed_plugin.ts";

const pluginDir = fileURLToPath(new URL("../../plugin/", import.meta.url));

Deno.test("PLUGIN_FILES matches plugin/ (run `deno task embed` after editing the plugin)", async () => {
  assert.deepEqual(PLUGIN_FILES, await readPluginSources(pluginDir));
});
