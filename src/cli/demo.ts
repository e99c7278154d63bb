import { command, constant, map, message, object } from "@optique/core";
import type { Runner } from "./runner.ts";

/** `vcc demo`: placeholder. */
export const demoCommand = command(
  "demo",
  map(object({ kind: constant("demo") }), (): Runner => (out) => {
    out.stdout("demo\n");
    return Promise.resolve(0);
  }),
  { description: message`Project the bundled sample session and print the summary` },
);
