/** One version number: the executable, deno.json, the plugin manifest, the bridge and the changelog. */
import assert from "node:assert/strict";
import { main } from "../src/cli/mod.ts";
import { Dispatcher } from "../src/bridge/_dispatch.ts";
import { project } from "../src/core/mod.ts";
import { VERSION } from "../src/version.ts";

const root = new URL("../", import.meta.url);

Deno.test("every place that states vcc's version states the same one", async () => {
  let printed = "";
  await main(["--version"], { stdout: (text) => void (printed += text), stderr: () => {} });
  const manifest = await Deno.readTextFile(new URL("plugin/plugin.yaml", root));
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const changelog = await Deno.readTextFile(new URL("CHANGELOG.md", root));
  const dispatcher = new Dispatcher({ version: VERSION, maxMessageBytes: 1024, project });
  const init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}';
  const reply = dispatcher.handleLine(new TextEncoder().encode(init)).response as {
    result: { serverInfo: { version: string } };
  };
  assert.equal(printed.trim(), VERSION, "vcc --version");
  assert.equal(/^version:\s*["']?([^"'\s#]+)/m.exec(manifest)?.[1], VERSION, "plugin/plugin.yaml");
  assert.equal(denoJson.version, VERSION, "deno.json");
  assert.equal(/^## (\S+)/m.exec(changelog)?.[1], VERSION, "CHANGELOG.md");
  assert.equal(reply.result.serverInfo.version, VERSION, "vcc serve handshake");
});
