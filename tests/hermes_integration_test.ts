/**
 * Runs the Hermes integration tests (tests/hermes_integration, pytest) once per Hermes Agent
 * release that `.ci/hermes.sh` installed (see `support/hermes_releases.ts`).
 *
 * Each run gets a fresh temporary `HERMES_HOME`, removed afterwards; the suite also gives every
 * test its own, so nothing reads or writes `~/.hermes`.
 */
import { testEachRelease } from "./support/hermes_releases.ts";

await testEachRelease({
  name: "Hermes integration tests",
  path: "tests/hermes_integration",
  env: async () => ({ HERMES_HOME: await Deno.makeTempDir({ prefix: "vcc-hermes-home-" }) }),
  cleanup: ({ HERMES_HOME }) => Deno.remove(HERMES_HOME!, { recursive: true }),
});
