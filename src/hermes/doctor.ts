import { join } from "node:path";
import { VERSION } from "../version.ts";
import { ENGINE_NAME } from "./activation.ts";
import { ConfigUnreadable } from "./config_errors.ts";
import { decodeConfig } from "./config_text.ts";
import { configData, parseConfig, readYamlScalar, valueAt } from "./config_yaml.ts";
import { configPath, pluginDirectory, RECORDED_COMMAND_FILE } from "./install.ts";
import { PLUGIN_FILES } from "./plugin_files.ts";
import type { RoundTrip } from "./round_trip.ts";

/** One finding of `vcc hermes doctor`: ok, or a problem with the command that fixes it. */
export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

/** What the checks read from outside: environment variables and a live bridge exchange. */
export interface DoctorEnvironment {
  readonly env: (name: string) => string | undefined;
  readonly roundTrip: (argv: readonly string[]) => Promise<RoundTrip>;
  /** How to run a `.ts` or `.js` entry point: the argv prefix before the file. */
  readonly scriptRunner: readonly string[];
}

const INSTALL = "vcc hermes install";
const ACTIVATE = "vcc hermes install --activate";

/**
 * Checks, in order, Hermes's home, the installed plugin, `config.yaml` (that it reads, then its
 * two keys), the executable the plugin will start and a live round trip through it. Every check
 * runs, except the two keys of a `config.yaml` that does not read; one failing does not hide the
 * others.
 */
export async function diagnose(
  hermesHome: string,
  environment: DoctorEnvironment,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const home = await Deno.stat(hermesHome).catch(() => undefined);
  checks.push(
    home?.isDirectory ? { name: "Hermes home", ok: true, detail: hermesHome } : {
      name: "Hermes home",
      ok: false,
      detail: `${hermesHome} does not exist`,
      fix: "run Hermes once, or pass --hermes-home / set HERMES_HOME",
    },
  );
  checks.push(await checkPlugin(pluginDirectory(hermesHome)));
  const config = await Deno.readTextFile(configPath(hermesHome)).catch(() => undefined);
  checks.push(...await checkConfig(configPath(hermesHome)));
  const server = await serverCommand(hermesHome, config, environment);
  checks.push(server.check);
  if (server.argv !== undefined) checks.push(await checkRoundTrip(server.argv, environment));
  return checks;
}

async function checkPlugin(directory: string): Promise<DoctorCheck> {
  const name = "plugin";
  const missing: string[] = [];
  const differing: string[] = [];
  for (const [file, text] of Object.entries(PLUGIN_FILES)) {
    const installed = await Deno.readTextFile(join(directory, file)).catch(() => undefined);
    if (installed === undefined) missing.push(file);
    else if (installed !== text) differing.push(file);
  }
  if (missing.length === Object.keys(PLUGIN_FILES).length) {
    return { name, ok: false, detail: `not installed in ${directory}`, fix: INSTALL };
  }
  if (missing.length > 0 || differing.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(", ")}` : "",
      differing.length > 0 ? `different from vcc ${VERSION}: ${differing.join(", ")}` : "",
    ].filter((part) => part !== "");
    return { name, ok: false, detail: `${directory}: ${parts.join("; ")}`, fix: INSTALL };
  }
  return { name, ok: true, detail: `${directory} (vcc ${VERSION})` };
}

/**
 * Whether Hermes can read `config.yaml` at all (as UTF-8 YAML 1.1, one document, one mapping; a
 * file it cannot read makes it run on its defaults), then the two keys that select vcc.
 */
async function checkConfig(path: string): Promise<DoctorCheck[]> {
  const name = "config.yaml";
  let data: Record<string, unknown>;
  try {
    data = configData(parseConfig(decodeConfig(await Deno.readFile(path)).text));
  } catch (error) {
    if (!(error instanceof ConfigUnreadable)) {
      return [{ name, ok: false, detail: `cannot read ${path}`, fix: ACTIVATE }];
    }
    return [{
      name,
      ok: false,
      detail: `${path}: ${error.message}; Hermes may ignore the whole file and run on its ` +
        "defaults, without vcc",
      fix: "correct the file at that line, or restore a config.yaml.vcc-backup-* copy",
    }];
  }
  const engine = valueAt(data, ["context", "engine"]);
  const enabled = valueAt(data, ["plugins", "enabled"]);
  const disabled = valueAt(data, ["plugins", "disabled"]);
  return [
    { name, ok: true, detail: `${path} reads as YAML` },
    engine === ENGINE_NAME ? { name: "context.engine", ok: true, detail: ENGINE_NAME } : {
      name: "context.engine",
      ok: false,
      detail: `is ${engine === undefined ? "not set" : JSON.stringify(engine)}, so Hermes ` +
        `uses its built-in compressor`,
      fix: ACTIVATE,
    },
    Array.isArray(disabled) && disabled.includes(ENGINE_NAME)
      ? {
        name: "plugins.enabled",
        ok: false,
        detail: `plugins.disabled lists ${ENGINE_NAME}, so Hermes never loads it`,
        fix: `remove ${ENGINE_NAME} from plugins.disabled`,
      }
      : Array.isArray(enabled) && enabled.includes(ENGINE_NAME)
      ? { name: "plugins.enabled", ok: true, detail: `includes ${ENGINE_NAME}` }
      : {
        name: "plugins.enabled",
        ok: false,
        detail: `does not include ${ENGINE_NAME}; Hermes releases that load user plugins ` +
          `only from this list will not find the engine`,
        fix: ACTIVATE,
      },
  ];
}

/**
 * The command the plugin will start, chosen as the plugin's own locator does for its explicit
 * sources: `VCC_BIN`, `context.vcc.binary`, a `vcc` executable in the plugin directory, then the
 * command recorded by `vcc hermes install`.
 */
async function serverCommand(
  hermesHome: string,
  config: string | undefined,
  environment: DoctorEnvironment,
): Promise<{ check: DoctorCheck; argv?: readonly string[] }> {
  const name = "executable";
  const directory = pluginDirectory(hermesHome);
  const explicit: [string, string | undefined][] = [
    ["VCC_BIN", environment.env("VCC_BIN")],
    ["context.vcc.binary", config && readYamlScalar(config, ["context", "vcc", "binary"])],
    ["the plugin directory", await executableFile(join(directory, ENGINE_NAME))],
  ];
  for (const [origin, path] of explicit) {
    if (!path) continue;
    if (!(await Deno.stat(path).catch(() => undefined))?.isFile) {
      const detail = `${origin} names ${path}, which is not a file`;
      return { check: { name, ok: false, detail, fix: `point ${origin} at vcc, or unset it` } };
    }
    const argv = /\.(ts|js|mjs)$/.test(path) ? [...environment.scriptRunner, path] : [path];
    return { check: { name, ok: true, detail: `${argv.join(" ")} (from ${origin})` }, argv };
  }
  const recorded = await readRecordedCommand(join(directory, RECORDED_COMMAND_FILE));
  if (recorded === undefined) {
    return {
      check: {
        name,
        ok: false,
        detail: `no ${RECORDED_COMMAND_FILE} in ${directory}; the plugin will look for vcc on PATH`,
        fix: INSTALL,
      },
    };
  }
  if (!(await Deno.stat(recorded[0]!).catch(() => undefined))?.isFile) {
    return {
      check: { name, ok: false, detail: `${recorded[0]} no longer exists`, fix: INSTALL },
    };
  }
  return {
    check: { name, ok: true, detail: `${recorded.join(" ")} (from ${RECORDED_COMMAND_FILE})` },
    argv: recorded,
  };
}

async function executableFile(path: string): Promise<string | undefined> {
  const info = await Deno.stat(path).catch(() => undefined);
  return info?.isFile && ((info.mode ?? 0) & 0o111) !== 0 ? path : undefined;
}

async function readRecordedCommand(path: string): Promise<string[] | undefined> {
  try {
    const record = JSON.parse(await Deno.readTextFile(path)) as { command?: unknown };
    const command = record.command;
    return Array.isArray(command) && command.length > 0 &&
        command.every((part) => typeof part === "string")
      ? command
      : undefined;
  } catch {
    return undefined;
  }
}

async function checkRoundTrip(
  argv: readonly string[],
  environment: DoctorEnvironment,
): Promise<DoctorCheck> {
  const name = "bridge";
  try {
    const trip = await environment.roundTrip([...argv, "serve"]);
    if (trip.serverVersion !== VERSION) {
      return {
        name,
        ok: false,
        detail: `the executable is vcc ${trip.serverVersion}, the plugin is ${VERSION}; ` +
          `the plugin will refuse it`,
        fix: `${INSTALL} (with the vcc you want Hermes to use)`,
      };
    }
    return {
      name,
      ok: true,
      detail: `vcc ${trip.serverVersion} projected a sample window into ${trip.bodyChars} chars; ` +
        `${Math.round(trip.elapsedMs)} ms from start to exit`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { name, ok: false, detail: `no round trip: ${reason}`, fix: INSTALL };
  }
}
