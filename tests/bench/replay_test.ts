/**
 * Runs `vcc bench replay` (3 seeds) on every installed Hermes release with the modern
 * context-engine API, the way CI does, and asserts the acceptance criteria from the numbers the
 * bench reports: on every seed vcc keeps more planted facts than stock overall and no fewer in any
 * probe category, keeps every distinct error fingerprint, makes no summary call, and costs no more
 * than stock, cache-priced; and no command of the story runs the login profile of the user who
 * started the bench. Each release's runs are kept in `.cache/replay/` for inspection.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { askRelease } from "../../src/bench/replay/mod.ts";
import { installedReleases, releaseLabel, repo } from "../support/hermes_releases.ts";
import { writeAll } from "../../src/wire/mod.ts";

const RUNS = join(repo, ".cache", "replay");

interface Totals {
  readonly kept: { readonly kept: number; readonly scored: number };
  readonly keptByCategory: Record<string, { readonly kept: number }>;
  readonly fingerprints: { readonly kept: number; readonly total: number };
  readonly summaryCalls: number;
  readonly cost: number;
  readonly departures: readonly string[];
}

/** The parts of the saved report (`replay.json`) the criteria are read from. */
interface Report {
  readonly releases: { readonly seeds: { seed: number; vcc: Totals; stock: Totals }[] }[];
}

/** The Deno cache this test runs from (Deno's default place unless DENO_DIR names one). */
function denoDir(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(base, "deno");
}

/**
 * A home for the user who starts the bench, whose login profiles write `marker`: a run that is
 * independent of the machine's profiles never creates it.
 */
async function userHomeWithMarkedProfile(dir: string): Promise<{ home: string; marker: string }> {
  const home = join(dir, "user-home"), marker = join(dir, "user-profile-ran");
  await Deno.mkdir(home);
  for (const profile of [".bash_profile", ".bash_login", ".profile", ".bashrc"]) {
    await Deno.writeTextFile(join(home, profile), `echo "$0" >> '${marker}'\n`);
  }
  return { home, marker };
}

async function modernReleases() {
  const installed = (await installedReleases()) ?? [];
  const modern = [];
  for (const release of installed) {
    if ((await askRelease(release.python).catch(() => undefined))?.modern) modern.push(release);
  }
  return modern;
}

const releases = await modernReleases();
if (releases.length === 0) {
  Deno.test({
    name: "vcc bench replay skipped: no Hermes release with the modern context-engine API is " +
      "installed (run `bash .ci/hermes.sh`)",
    ignore: true,
    fn() {},
  });
}

for (const release of releases) {
  Deno.test(`vcc bench replay meets its acceptance criteria on ${releaseLabel(release.release)} (Python ${release.pythonVersion})`, async () => {
    const cache = await Deno.makeTempDir({ prefix: "vcc-replay-test-" });
    const userHome = await userHomeWithMarkedProfile(cache);
    const started = performance.now();
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "-A",
        join(repo, "main.ts"),
        "bench",
        "replay",
        "--hermes",
        release.python,
        "--runs-dir",
        RUNS,
        // Hermes waits on its own subprocesses and timers: three runs keep two cores busy.
        "--jobs",
        "3",
      ],
      cwd: repo,
      // The report goes to a cache of its own; Deno keeps using this process's module cache.
      env: { HOME: userHome.home, XDG_CACHE_HOME: cache, DENO_DIR: denoDir(), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const seconds = Math.round((performance.now() - started) / 1000);
    writeAll(Deno.stdout, new TextDecoder().decode(stderr) + new TextDecoder().decode(stdout));
    writeAll(Deno.stdout, `vcc bench replay took ${seconds} s\n`);
    assert.equal(code, 0, `vcc bench replay exited ${code}`);
    const report = JSON.parse(await Deno.readTextFile(join(cache, "vcc", "replay.json"))) as Report;
    const failures: string[] = [];
    for (const { seed, vcc, stock } of report.releases[0]!.seeds) {
      const fail = (what: string) => failures.push(`seed ${seed}: ${what}`);
      if (vcc.departures.length + stock.departures.length > 0) {
        fail("a run departed from the story");
      }
      if (vcc.kept.kept <= stock.kept.kept) {
        fail(`vcc keeps ${vcc.kept.kept} facts, stock ${stock.kept.kept} (of ${vcc.kept.scored})`);
      }
      for (const [category, count] of Object.entries(vcc.keptByCategory)) {
        const theirs = stock.keptByCategory[category]!.kept;
        if (count.kept < theirs) fail(`vcc keeps ${count.kept} ${category} facts, stock ${theirs}`);
      }
      if (vcc.fingerprints.kept < vcc.fingerprints.total) {
        fail(`vcc keeps ${vcc.fingerprints.kept} of ${vcc.fingerprints.total} error fingerprints`);
      }
      if (vcc.summaryCalls > 0) fail(`vcc made ${vcc.summaryCalls} summary calls`);
      if (vcc.cost > stock.cost) fail(`vcc costs ${vcc.cost}, stock ${stock.cost}`);
    }
    assert.deepEqual(failures, []);
    assert.equal(
      await Deno.stat(userHome.marker).then(() => true, () => false),
      false,
      "a command of the story ran the login profile of the user who started the bench",
    );
  });
}
