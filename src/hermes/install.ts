import { join } from "node:path";
import { VERSION } from "../version.ts";
import { activateInConfig, deactivateInConfig, ENGINE_NAME } from "./_activation.ts";
import { RECORDED_COMMAND_FILE } from "./launch.ts";
import { PLUGIN_FILES } from "./_plugin_files.ts";

/** Hermes's home does not exist, so there is nothing to install into. */
export class HermesHomeMissing extends Error {
  constructor(readonly hermesHome: string) {
    super(`Hermes home ${hermesHome} does not exist; run Hermes once or pass --hermes-home`);
    this.name = "HermesHomeMissing";
  }
}

/** Where the plugin lives inside Hermes's home (the directory name must equal the engine name). */
export function pluginDirectory(hermesHome: string): string {
  return join(hermesHome, "plugins", ENGINE_NAME);
}

/** Hermes's configuration file inside its home. */
export function configPath(hermesHome: string): string {
  return join(hermesHome, "config.yaml");
}

/** How `vcc hermes install` runs. */
export interface InstallOptions {
  /** Also select the engine in `config.yaml`. */
  readonly activate: boolean;
  /** The argv (without `serve`) that runs this vcc, recorded for the plugin. */
  readonly command: readonly string[];
  /** Names the `config.yaml` backup. */
  readonly now: Date;
}

/** What an install or uninstall changed. */
export interface InstallReport {
  readonly pluginDirectory: string;
  /** The copy of `config.yaml` made before changing it; absent when it was left alone. */
  readonly configBackup?: string;
  readonly configChanged: boolean;
}

/**
 * Writes the embedded plugin into `$HERMES_HOME/plugins/vcc/`, records `options.command` for it,
 * and with `options.activate` selects it in `config.yaml` (after a backup), keeping every other
 * key and comment. Python modules left from an older install are removed.
 */
export async function installPlugin(
  hermesHome: string,
  options: InstallOptions,
): Promise<InstallReport> {
  await requireDirectory(hermesHome);
  const directory = pluginDirectory(hermesHome);
  await Deno.mkdir(directory, { recursive: true });
  for await (const entry of Deno.readDir(directory)) {
    if (entry.isFile && entry.name.endsWith(".py") && !(entry.name in PLUGIN_FILES)) {
      await Deno.remove(join(directory, entry.name));
    }
  }
  for (const [name, text] of Object.entries(PLUGIN_FILES)) {
    await Deno.writeTextFile(join(directory, name), text);
  }
  const record = { command: options.command, version: VERSION };
  await Deno.writeTextFile(
    join(directory, RECORDED_COMMAND_FILE),
    `${JSON.stringify(record, null, 2)}\n`,
  );
  const config = options.activate
    ? await rewriteConfig(configPath(hermesHome), activateInConfig, options.now)
    : { configChanged: false };
  return { pluginDirectory: directory, ...config };
}

/**
 * Removes `$HERMES_HOME/plugins/vcc/` and, when `config.yaml` selects or enables vcc, restores
 * `context.engine: compressor` and drops vcc from `plugins.enabled` (after a backup).
 */
export async function uninstallPlugin(hermesHome: string, now: Date): Promise<InstallReport> {
  await requireDirectory(hermesHome);
  const directory = pluginDirectory(hermesHome);
  await Deno.remove(directory, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  const config = await rewriteConfig(configPath(hermesHome), deactivateInConfig, now);
  return { pluginDirectory: directory, ...config };
}

/** `path`, or `path-2`, `path-3`, … when taken, so no earlier backup is overwritten. */
async function freeName(path: string): Promise<string> {
  for (let n = 1;; n++) {
    const candidate = n === 1 ? path : `${path}-${n}`;
    if (!(await Deno.stat(candidate).catch(() => undefined))) return candidate;
  }
}

async function requireDirectory(path: string): Promise<void> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isDirectory) throw new HermesHomeMissing(path);
}

/** Applies `edit` to the file's text; when that changes it, backs the file up and replaces it. */
async function rewriteConfig(
  path: string,
  edit: (text: string) => string,
  now: Date,
): Promise<{ configChanged: boolean; configBackup?: string }> {
  const existing = await Deno.readTextFile(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  const updated = edit(existing ?? "");
  if (updated === (existing ?? "")) return { configChanged: false };
  const temporary = `${path}.vcc-new`;
  await Deno.writeTextFile(temporary, updated, { mode: 0o600 });
  if (existing === undefined) {
    await Deno.rename(temporary, path);
    return { configChanged: true };
  }
  const backup = await freeName(
    `${path}.vcc-backup-${now.toISOString().replace(/[-:]|\.\d+/g, "")}`,
  );
  await Deno.copyFile(path, backup);
  await Deno.chmod(temporary, (await Deno.stat(path)).mode! & 0o777);
  await Deno.rename(temporary, path);
  return { configChanged: true, configBackup: backup };
}
