import { join } from "node:path";
import { VERSION } from "../version.ts";
import {
  activateInConfig,
  type ActivationRecord,
  deactivateInConfig,
  ENGINE_NAME,
} from "./_activation.ts";
import {
  type ActivationFile,
  readActivationFile,
  sha256,
  writeActivationFile,
} from "./activation_file.ts";
import {
  commitWrite,
  type ConfigFile,
  discardWrite,
  type PreparedWrite,
  prepareWrite,
  readConfigFile,
  removeConfigFile,
  requireWritable,
  sameBytes,
} from "./config_file.ts";
import { decodeConfig, encodeConfig } from "./config_text.ts";
import { readYamlScalar } from "./config_yaml.ts";
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
  /** After an uninstall: `context.engine` is still `vcc`, as it was before the install. */
  readonly stillSelected?: boolean;
}

/**
 * Writes the embedded plugin into `$HERMES_HOME/plugins/vcc/`, records `options.command` for it,
 * and with `options.activate` selects it in `config.yaml` (after a backup), keeping every other
 * byte. The edit is worked out and its result written beside `config.yaml` before any plugin
 * file is, so a file vcc cannot edit stops the install with nothing changed. Python modules left
 * from an older install are removed.
 */
export async function installPlugin(
  hermesHome: string,
  options: InstallOptions,
): Promise<InstallReport> {
  await requireDirectory(hermesHome);
  const directory = pluginDirectory(hermesHome);
  const edit = options.activate ? await prepareActivation(configPath(hermesHome)) : undefined;
  try {
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
  } catch (error) {
    if (edit?.write) await discardWrite(edit.write);
    throw error;
  }
  if (edit?.write === undefined) {
    // Already selected: a record of no change keeps uninstall from undoing what vcc did not do.
    if (edit && !(await readActivationFile(directory))) {
      await writeActivationFile(directory, edit.record);
    }
    return { pluginDirectory: directory, configChanged: false };
  }
  const backup = await commitWrite(edit.write, options.now);
  await writeActivationFile(directory, { ...edit.record, ...(backup && { backup }) });
  return {
    pluginDirectory: directory,
    configChanged: true,
    ...(backup && { configBackup: backup }),
  };
}

/** A `config.yaml` edit ready to put in place (none when vcc is selected already), its record. */
interface PreparedActivation {
  readonly write?: PreparedWrite;
  readonly record: ActivationFile;
}

/** The activated `config.yaml`, written beside it unless it selects vcc already. */
async function prepareActivation(path: string): Promise<PreparedActivation> {
  const file = await readConfigFile(path);
  const original = decodeConfig(file.bytes ?? new Uint8Array());
  const activated = activateInConfig(original.text);
  const before = file.bytes ? await sha256(file.bytes) : null;
  if (activated.text === original.text && before !== null) {
    return { record: { before, after: before, changes: {} } };
  }
  const bytes = encodeConfig({ text: activated.text, bom: original.bom });
  const record = { before, after: await sha256(bytes), changes: activated.record };
  return { write: await prepareWrite(file, bytes), record };
}

/**
 * Puts `config.yaml` back as it was before `vcc hermes install --activate` (its backup, when the
 * file has not changed since; else only the two keys, as the install's record says), then removes
 * `$HERMES_HOME/plugins/vcc/`. A `config.yaml` vcc cannot edit stops it with nothing changed.
 */
export async function uninstallPlugin(hermesHome: string, now: Date): Promise<InstallReport> {
  await requireDirectory(hermesHome);
  const directory = pluginDirectory(hermesHome);
  const file = await readConfigFile(configPath(hermesHome));
  const restore = await planRestore(file, await readActivationFile(directory));
  const configBackup = restore.write
    ? await commitWrite(restore.write, now)
    : restore.remove
    ? await removeConfigFile(file, now)
    : undefined;
  await Deno.remove(directory, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return {
    pluginDirectory: directory,
    configChanged: restore.write !== undefined || restore.remove === true,
    stillSelected: restore.stillSelected === true,
    ...(configBackup && { configBackup }),
  };
}

/** How uninstall puts `config.yaml` back: a replacement, or removing a file install created. */
interface Restore {
  readonly write?: PreparedWrite;
  readonly remove?: boolean;
  readonly stillSelected?: boolean;
}

async function planRestore(file: ConfigFile, record: ActivationFile | undefined): Promise<Restore> {
  if (file.bytes === undefined) return {};
  const unchanged = record !== undefined && await sha256(file.bytes) === record.after;
  if (unchanged && record.before === null) {
    await requireWritable(file);
    return { remove: true };
  }
  const backup = unchanged && record.backup !== undefined
    ? await Deno.readFile(record.backup).catch(() => undefined)
    : undefined;
  const original = backup !== undefined && await sha256(backup) === record?.before
    ? backup
    : revert(file.bytes, record?.changes);
  if (sameBytes(original, file.bytes)) return { stillSelected: selectsVcc(original) };
  return { write: await prepareWrite(file, original), stillSelected: selectsVcc(original) };
}

function revert(bytes: Uint8Array, changes: ActivationRecord | undefined): Uint8Array {
  const config = decodeConfig(bytes);
  return encodeConfig({ text: deactivateInConfig(config.text, changes), bom: config.bom });
}

function selectsVcc(bytes: Uint8Array): boolean {
  return readYamlScalar(new TextDecoder().decode(bytes), ["context", "engine"]) === ENGINE_NAME;
}

async function requireDirectory(path: string): Promise<void> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isDirectory) throw new HermesHomeMissing(path);
}
