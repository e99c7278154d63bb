import { command, constant, map, message, object } from "@optique/core";
import { diagnose } from "../hermes/doctor.ts";
import { resolveHermesHome } from "../hermes/hermes_home.ts";
import { askInstalledHermes } from "../hermes/installed_hermes.ts";
import { bridgeRoundTrip } from "../hermes/round_trip.ts";
import { hermesHomeOption } from "./_hermes_home_option.ts";
import type { Runner } from "./_runner.ts";

/** `vcc hermes doctor [--hermes-home DIR]`: exit 0 when every check is ok, else 1. */
export const hermesDoctorCommand = command(
  "doctor",
  map(
    object({ kind: constant("hermes-doctor"), hermesHome: hermesHomeOption }),
    (args): Runner => async (out) => {
      const home = resolveHermesHome(args.hermesHome);
      const checks = await diagnose(home, {
        python: Deno.build.os === "windows" ? "python" : "python3",
        roundTrip: (argv) => bridgeRoundTrip(argv),
        installedHermes: () => askInstalledHermes(Deno.env.get("PATH") ?? ""),
      });
      const width = Math.max(...checks.map((check) => check.name.length));
      for (const check of checks) {
        const status = check.ok ? "ok     " : "problem";
        out.stdout(`${status}  ${check.name.padEnd(width)}  ${check.detail}\n`);
        if (check.fix) out.stdout(`${" ".repeat(9 + width + 2)}fix: ${check.fix}\n`);
      }
      return checks.every((check) => check.ok) ? 0 : 1;
    },
  ),
  {
    description: message`Check Hermes home, plugin, config, executable and a live bridge call`,
    footer: message`Example: vcc hermes doctor --hermes-home ~/.hermes`,
  },
);
