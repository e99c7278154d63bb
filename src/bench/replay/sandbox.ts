/**
 * One run's sandbox: a Hermes home configured for the scripted model (with vcc installed and
 * selected, or the stock compressor), the story's skills, and the project as a git repository,
 * plus the environment Hermes runs in. Nothing outside the run's directory is touched.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { installPlugin } from "../../hermes/install.ts";
import type { HermesRelease } from "./hermes_release.ts";
import { shellWord } from "./story/shell_word.ts";
import type { Story } from "./story/story.ts";

/** The two engines the bench compares. */
export type Engine = "vcc" | "stock";

/** Hermes refuses a smaller context window. */
export const CONTEXT_LENGTH = 64_000;

/** When every commit of the sandbox was made, so commit ids are the same on every run. */
const COMMIT_DATE = "2026-11-30T09:00:00Z";

/** The directories of one run and the environment Hermes runs in. */
export interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  readonly env: Record<string, string>;
}

function config(baseUrl: string): string {
  return [
    "model:",
    "  default: scripted-model",
    "  provider: custom",
    `  base_url: ${baseUrl}`,
    "  api_key: not-a-real-key",
    `  context_length: ${CONTEXT_LENGTH}`,
    "security:",
    "  allow_lazy_installs: false",
    "memory:",
    "  nudge_interval: 0",
    "skills:",
    "  creation_nudge_interval: 0",
    "lsp:",
    "  enabled: false",
    // Its Python-toolchain line depends on whether a probe beat a timeout: not the same on every run.
    "agent:",
    "  environment_probe: false",
    // Commands run with HOME set to the home's own `home/`, so their login shells read the
    // profile written there; Hermes sources no profile of the machine user's before them.
    "terminal:",
    "  home_mode: profile",
    "  auto_source_bashrc: false",
    "",
  ].join("\n");
}

async function writeTree(root: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    const path = join(root, relative);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

/**
 * The login profile of the commands' home: the run's `PATH` and nothing else. Hermes starts
 * commands from a login shell, which on Debian resets `PATH` in `/etc/profile`; the machine
 * user's own profile would make runs differ between machines, or stall them (a lock left in
 * pyenv's shims by a killed shell makes every later login shell wait a minute for it).
 */
async function writeLoginProfile(hermesHome: string, path: string): Promise<void> {
  const commandsHome = join(hermesHome, "home");
  await Deno.mkdir(commandsHome, { recursive: true });
  await Deno.writeTextFile(join(commandsHome, ".bash_profile"), `export PATH=${shellWord(path)}\n`);
}

/** The variables that make git identical on every run: identity, dates, no user config. */
function gitEnv(root: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: "Ledger Dev",
    GIT_AUTHOR_EMAIL: "dev@ledger.invalid",
    GIT_COMMITTER_NAME: "Ledger Dev",
    GIT_COMMITTER_EMAIL: "dev@ledger.invalid",
    GIT_AUTHOR_DATE: COMMIT_DATE,
    GIT_COMMITTER_DATE: COMMIT_DATE,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
    GIT_PAGER: "cat",
  };
}

async function git(project: string, env: Record<string, string>, args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command("git", {
    args,
    cwd: project,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `git ${args[0]} failed in the sandbox: ${new TextDecoder().decode(stderr).trim()}`,
    );
  }
}

/** How {@linkcode prepareSandbox} sets a run up. */
export interface SandboxOptions {
  readonly story: Story;
  readonly release: HermesRelease;
  readonly engine: Engine;
  readonly baseUrl: string;
  /** The argv (without `serve`) the vcc plugin records and runs. */
  readonly vccCommand: readonly string[];
}

/** Makes the sandbox in `root` (which must not exist yet). */
export async function prepareSandbox(root: string, options: SandboxOptions): Promise<Sandbox> {
  const home = join(root, "home"), project = join(root, "project");
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  await Deno.writeTextFile(join(root, "gitconfig"), "[init]\n\tdefaultBranch = main\n");
  await writeTree(project, options.story.files);
  await writeTree(join(home, "skills"), options.story.skills);
  const inherited = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !/^(HERMES_|VCC_|GIT_)/.test(name)),
  );
  const path = `${dirname(options.release.python)}:${inherited.PATH ?? ""}`;
  const env: Record<string, string> = {
    ...inherited,
    ...gitEnv(root),
    HERMES_HOME: home,
    PATH: path,
    NO_COLOR: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    TZ: "UTC",
    LANG: "C.UTF-8",
  };
  await writeLoginProfile(home, path);
  await git(project, env, ["init", "-q"]);
  await git(project, env, ["add", "-A"]);
  await git(project, env, ["commit", "-q", "-m", "ledger-svc: import the service"]);
  await Deno.writeTextFile(join(home, "config.yaml"), config(options.baseUrl));
  if (options.engine === "vcc") {
    await installPlugin(home, {
      activate: true,
      command: options.vccCommand,
      now: new Date(COMMIT_DATE),
    });
  }
  return { root, home, project, env };
}
