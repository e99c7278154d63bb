/**
 * Runs the live Hermes suite (tests/hermes_live, pytest) once per Hermes Agent release that
 * `.ci/hermes.sh` installed (see `support/hermes_releases.ts`): a real `hermes chat` agent loop
 * with vcc installed by `vcc hermes install --activate`, driven by a scripted model on 127.0.0.1
 * through several compactions. Each run keeps its session store, the windows Hermes handed to vcc
 * and a scorecard in `.cache/live/<release>/` for `vcc preview|stats|bench --db`.
 */
import { testEachRelease } from "./support/hermes_releases.ts";

await testEachRelease({ name: "Live Hermes session tests", path: "tests/hermes_live" });
