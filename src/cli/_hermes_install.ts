import { command, constant, map, message, object, option } from "@optique/core";
import { ConfigUnreadable, YamlEditError } from "../hermes/config_errors.ts";
import { resolveHermesHome } from "../hermes/hermes_home.ts";
import { HermesHomeMissing, installPlugin } from "../hermes/install.ts";
import { selfCommand } from "../hermes/self_command.ts";
import { RuntimeFailure, UsageError } from "./_errors.ts";
import { hermesHomeOption } from "./_hermes_home_option.ts";
import type { Runner } from "./_runner.ts";

/** `vcc hermes install [--hermes-home DIR] [--activate]`. */
export const hermesInstallCommand = command(
  "install",
  map(
    object({
      kind: constant("hermes-install"),
      hermesHome: hermesHomeOption,
      activate: option("--activate", {
        description:
          message`Also select vcc in config.yaml, after a backup: set context.engine: vcc and add vcc to plugins.enabled`,
      }),
    }),
    (args): Runner => async (out) => {
      const home = resolveHermesHome(args.hermesHome);
      const command = selfCommand();
      const report = await installPlugin(home, {
        activate: args.activate,
        command,
        now: new Date(),
      }).catch(translateInstallError);
      out.stdout(`Installed the vcc plugin in ${report.pluginDirectory}\n`);
      out.stdout(`The plugin runs: ${command.join(" ")} serve\n`);
      if (report.configBackup) out.stdout(`Backed up config.yaml to ${report.configBackup}\n`);
      if (args.activate) {
        out.stdout(
          report.configChanged
            ? "Selected vcc in config.yaml (context.engine: vcc, plugins.enabled: vcc)\n"
            : "config.yaml already selects vcc\n",
        );
      } else {
        out.stdout("To use it: vcc hermes install --activate (or set context.engine: vcc)\n");
      }
      out.stdout("Restart Hermes to load it; check with: vcc hermes doctor\n");
      return 0;
    },
  ),
  {
    description: message`Install the Hermes plugin that runs this vcc`,
    footer: message`Example: vcc hermes install --activate`,
  },
);

/** Turns the errors an install or uninstall can meet into CLI errors; rethrows anything else. */
export function translateInstallError(error: unknown): never {
  if (error instanceof HermesHomeMissing) throw new UsageError(error.message);
  if (error instanceof ConfigUnreadable) {
    throw new RuntimeFailure(
      `config.yaml is not valid YAML for Hermes: ${error.problem}. Nothing was changed; ` +
        (error.fix ?? "fix it first"),
    );
  }
  if (error instanceof YamlEditError) {
    throw new RuntimeFailure(
      `cannot edit config.yaml: ${error.message}. Nothing was changed; edit it by hand`,
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    throw new RuntimeFailure(`permission denied: ${error.message}`);
  }
  throw error;
}
