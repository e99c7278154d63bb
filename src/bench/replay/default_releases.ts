/**
 * Which Hermes the bench runs when none is named: from a checkout, every release with the modern
 * context-engine API that `.ci/hermes.sh` installed (`.cache/hermes/installed.txt`, one
 * `hermes <release> python <version> <interpreter>` per line); elsewhere the `hermes` on `PATH`.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { askInstalledHermes } from "../../hermes/installed_hermes.ts";
import { type HermesRelease, releaseAt } from "./hermes_release.ts";

const LISTED = /^hermes \S+ python \S+ (\S.*)$/;

function checkoutListing(): string | undefined {
  if (Deno.build.standalone || !import.meta.url.startsWith("file:")) return undefined;
  const path = fileURLToPath(new URL("../../../.cache/hermes/installed.txt", import.meta.url));
  try {
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The releases to run by default, or why there are none. */
export async function defaultReleases(): Promise<HermesRelease[] | { problem: string }> {
  const listing = checkoutListing();
  if (listing) {
    const pythons = (await Deno.readTextFile(listing)).split("\n").map((line) =>
      LISTED.exec(line.trim())?.[1]
    )
      .filter((python): python is string => python !== undefined);
    const releases = [];
    for (const python of pythons) {
      const release = await releaseAt(python).catch(() => undefined);
      if (release?.modern) releases.push(release);
    }
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
