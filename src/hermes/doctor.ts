import { basename, dirname, join } from "node:path";
import { VERSION } from "../version.ts";
import { ENGINE_NAME } from "./_activation.ts";
import { ConfigUnreadable } from "./config_errors.ts";
import { decodeConfig } from "./config_text.ts";
import { configData, parseConfig, readYamlScalar, valueAt } from "./config_yaml.ts";
import { configPath, pluginDirectory } from "./install.ts";
import type { HermesLookup, InstalledHermes } from "./installed_hermes.ts";
import { PLUGIN_FILES } from "./_plugin_files.ts";
import type { RoundTrip } from "./round_trip.ts";

/** One finding of `vcc hermes doctor`: ok, or a problem with the command that fixes it. */
export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

/** What the checks use from outside: a Python to ask the plugin with, and a live bridge exchange. */
export interface DoctorEnvironment {
  /** The Python interpreter that runs the installed plugin's locator. */
  readonly python: string;
  /** Starts `argv` (a `vcc serve` command) and exchanges a sample projection with it. */
  readonly roundTrip: (argv: readonly string[]) => Promise<RoundTrip>;
  /** Asks the Hermes the user runs how it loads a user context engine. */
  readonly installedHermes: () => Promise<HermesLookup>;
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
  checks.push(...await checkConfig(hermesHome, await environment.installedHermes()));
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
 * file it cannot read makes it run on its defaults), then the keys that select vcc: `context.engine`
 * always, `plugins.enabled` unless the installed Hermes loads the engine by `context.engine` alone.
 */
async function checkConfig(hermesHome: string, hermes: HermesLookup): Promise<DoctorCheck[]> {
  const name = "config.yaml";
  const path = configPath(hermesHome);
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
      detail: `${path}: ${error.problem}; Hermes may ignore the whole file and run on its ` +
        "defaults, without vcc",
      fix: error.fix ?? "correct the file at that line, or restore a config.yaml.vcc-backup-* copy",
    }];
  }
  const engine = valueAt(data, ["context", "engine"]);
  return [
    { name, ok: true, detail: `${path} reads as YAML` },
    engine === ENGINE_NAME ? { name: "context.engine", ok: true, detail: ENGINE_NAME } : {
      name: "context.engine",
      ok: false,
      detail: `is ${engine === undefined ? "not set" : JSON.stringify(engine)}, so Hermes ` +
        `uses its built-in compressor`,
      fix: ACTIVATE,
    },
    checkPluginList(data, hermesHome, hermes),
  ];
}

/**
 * `plugins.enabled`: not needed where the installed Hermes's context-engine loader finds the engine
 * by `context.engine` alone (it then consults neither list); elsewhere it must list vcc and
 * `plugins.disabled` must not. Without a Hermes to ask, a missing entry is a problem, as it is
 * for the releases that need it.
 */
function checkPluginList(
  data: Record<string, unknown>,
  hermesHome: string,
  lookup: HermesLookup,
): DoctorCheck {
  const name = "plugins.enabled";
  const hermes = "hermes" in lookup ? describeHermes(lookup.hermes) : undefined;
  if ("hermes" in lookup && lookup.hermes.loadsUserEngineByName) {
    const plugins = dirname(pluginDirectory(hermesHome));
    const detail = `not needed: ${hermes} loads the engine context.engine names from ${plugins}`;
    return { name, ok: true, detail };
  }
  const enabled = valueAt(data, ["plugins", "enabled"]);
  const disabled = valueAt(data, ["plugins", "disabled"]);
  if (Array.isArray(disabled) && disabled.includes(ENGINE_NAME)) {
    return {
      name,
      ok: false,
      detail: `plugins.disabled lists ${ENGINE_NAME}, so Hermes never loads it`,
      fix: `remove ${ENGINE_NAME} from plugins.disabled`,
    };
  }
  if (Array.isArray(enabled) && enabled.includes(ENGINE_NAME)) {
    return { name, ok: true, detail: `includes ${ENGINE_NAME}` };
  }
  const detail = "hermes" in lookup
    ? `does not include ${ENGINE_NAME}, and ${hermes} loads user plugins only from this list, ` +
      "so it will not find the engine"
    : `does not include ${ENGINE_NAME}; Hermes releases that load user plugins only from this ` +
      `list will not find the engine (could not ask the installed Hermes: ${lookup.problem})`;
  return { name, ok: false, detail, fix: ACTIVATE };
}

function describeHermes(hermes: InstalledHermes): string {
  return `Hermes ${hermes.version} (${hermes.command})`;
}

/**
 * Asks the installed plugin which command it will start (`describe_server` of its locator, run by
 * a Python interpreter with this process's environment), so the answer is the plugin's own: the
 * same order of places, the same `~` expansion, the same record of `vcc hermes install`.
 */
async function serverCommand(
  hermesHome: string,
  config: string | undefined,
  environment: DoctorEnvironment,
): Promise<{ check: DoctorCheck; argv?: readonly string[] }> {
  const name = "executable";
  const directory = pluginDirectory(hermesHome);
  const configured = (config && readYamlScalar(config, ["context", "vcc", "binary"])) ?? "";
  if (!(await Deno.stat(join(directory, "binary.py")).catch(() => undefined))?.isFile) {
    const detail = `no plugin in ${directory} to ask which vcc it starts`;
    return { check: { name, ok: false, detail, fix: INSTALL } };
  }
  let answer: { argv?: string[]; origin?: string; problem?: string };
  try {
    const { code, stdout, stderr } = await new Deno.Command(environment.python, {
      args: [
        "-I",
        "-B",
        "-c",
        DESCRIBE_SERVER,
        dirname(directory),
        basename(directory),
        configured,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0) throw new Error(new TextDecoder().decode(stderr).trim().split("\n").at(-1));
    answer = JSON.parse(new TextDecoder().decode(stdout));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      check: {
        name,
        ok: false,
        detail: `cannot ask the plugin in ${directory} which vcc it starts: ${reason}`,
        fix: `${INSTALL}, and put Python 3 on PATH as ${environment.python}`,
      },
    };
  }
  if (answer.argv === undefined) {
    const detail = answer.problem ?? "the plugin's locator gave no answer";
    return { check: { name, ok: false, detail, fix: `${INSTALL}, or set VCC_BIN to a vcc` } };
  }
  const detail = `${answer.argv.join(" ")} (from ${answer.origin})`;
  return { check: { name, ok: true, detail }, argv: answer.argv };
}

/** Python run as `python -c DESCRIBE_SERVER PLUGINS_DIR PACKAGE BINARY`: prints the answer of the
 * plugin's `describe_server(BINARY)` as JSON. */
const DESCRIBE_SERVER = `import importlib, json, sys
sys.path.insert(0, sys.argv[1])
binary = importlib.import_module(sys.argv[2] + ".binary")
print(json.dumps(binary.describe_server(sys.argv[3])))`;

async function checkRoundTrip(
  argv: readonly string[],
  environment: DoctorEnvironment,
): Promise<DoctorCheck> {
  const name = "bridge";
  try {
    const trip = await environment.roundTrip(argv);
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
