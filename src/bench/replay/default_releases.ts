/**
 * Which Hermes the bench runs when none is named: from a checkout, every release with the modern
 * context-engine API that `.ci/hermes.sh` installed (`.cache/hermes/installed.txt`); elsewhere
 * the `hermes` on `PATH`.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { askInstalledHermes } from "../../hermes/installed_hermes.ts";
import { INSTALLED_LISTING_PATH, readInstalledReleases } from "../../hermes/installed_releases.ts";
import { type HermesRelease, releaseAt } from "./hermes_release.ts";

/** The checkout this module runs from, or `undefined` in a compiled or remote vcc. */
function checkoutRoot(): string | undefined {
  if (Deno.build.standalone || !import.meta.url.startsWith("file:")) return undefined;
  return fileURLToPath(new URL("../../../", import.meta.url));
}

/** The releases to run by default, or why there are none. */
export async function defaultReleases(): Promise<HermesRelease[] | { problem: string }> {
  const root = checkoutRoot();
  const listed = root === undefined ? undefined : await readInstalledReleases(root);
  if (root !== undefined && listed !== undefined) {
    const releases = [];
    for (const { python } of listed) {
      const release = await releaseAt(python).catch(() => undefined);
      if (release?.modern) releases.push(release);
    }
    const listing = join(root, INSTALLED_LISTING_PATH);
    return releases.length > 0
      ? releases
      : { problem: `${listing} lists no release with the modern context-engine API` };
  }
  const found = await askInstalledHermes(Deno.env.get("PATH") ?? "");
  if ("problem" in found) return { problem: `${found.problem}; name a Hermes with --hermes` };
  const release = await releaseAt(found.hermes.command);
  return release.modern
    ? [release]
    : { problem: `${found.hermes.command} (${release.label}) lacks the modern context-engine API` };
}
