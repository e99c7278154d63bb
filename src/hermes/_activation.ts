import { addToYamlList, readYamlScalar, removeFromYamlList, setYamlScalar } from "./config_yaml.ts";

/** The `context.engine` value that selects vcc; also the plugin's name. */
export const ENGINE_NAME = "vcc";

/** The `context.engine` value of Hermes's built-in compressor. */
export const STOCK_ENGINE_NAME = "compressor";

const ENGINE_PATH = ["context", "engine"] as const;
const ENABLED_PATH = ["plugins", "enabled"] as const;

/**
 * `config.yaml` text with vcc selected: `context.engine: vcc`, and `vcc` in `plugins.enabled`
 * (Hermes releases that load user plugins only from that list need it). Nothing else changes.
 */
export function activateInConfig(text: string): string {
  return addToYamlList(setYamlScalar(text, ENGINE_PATH, ENGINE_NAME), ENABLED_PATH, ENGINE_NAME);
}

/**
 * `config.yaml` text with vcc deselected: `context.engine` back to `compressor` if it was `vcc`,
 * and `vcc` removed from `plugins.enabled`. Nothing else changes.
 */
export function deactivateInConfig(text: string): string {
  const engine = readYamlScalar(text, ENGINE_PATH);
  const restored = engine === ENGINE_NAME
    ? setYamlScalar(text, ENGINE_PATH, STOCK_ENGINE_NAME)
    : text;
  return removeFromYamlList(restored, ENABLED_PATH, ENGINE_NAME);
}
