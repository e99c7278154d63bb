/**
 * The Hermes plugin's files, imported as text from `plugin/` so that every build of vcc (`deno
 * run`, the `deno bundle` output, a `deno compile` executable) carries them and `vcc hermes
 * install` can write them anywhere. A test fails when a file in `plugin/` is missing here.
 *
 * @module
 */
import init from "../../plugin/__init__.py" with { type: "text" };
import binary from "../../plugin/binary.py" with { type: "text" };
import boundedLines from "../../plugin/bounded_lines.py" with { type: "text" };
import bridge from "../../plugin/bridge.py" with { type: "text" };
import bridgeErrors from "../../plugin/bridge_errors.py" with { type: "text" };
import deadline from "../../plugin/deadline.py" with { type: "text" };
import engine from "../../plugin/engine.py" with { type: "text" };
import fastAnchors from "../../plugin/fast_anchors.py" with { type: "text" };
import hermesInternals from "../../plugin/hermes_internals.py" with { type: "text" };
import launch from "../../plugin/launch.json" with { type: "text" };
import manifest from "../../plugin/manifest.py" with { type: "text" };
import pluginYaml from "../../plugin/plugin.yaml" with { type: "text" };
import serverProcess from "../../plugin/server_process.py" with { type: "text" };
import settings from "../../plugin/settings.py" with { type: "text" };
import settingsJson from "../../plugin/settings.json" with { type: "text" };

/** The Hermes plugin's files by name, as `vcc hermes install` writes them. */
export const PLUGIN_FILES: Readonly<Record<string, string>> = {
  "__init__.py": init,
  "binary.py": binary,
  "bounded_lines.py": boundedLines,
  "bridge.py": bridge,
  "bridge_errors.py": bridgeErrors,
  "deadline.py": deadline,
  "engine.py": engine,
  "fast_anchors.py": fastAnchors,
  "hermes_internals.py": hermesInternals,
  "launch.json": launch,
  "manifest.py": manifest,
  "plugin.yaml": pluginYaml,
  "server_process.py": serverProcess,
  "settings.json": settingsJson,
  "settings.py": settings,
};
