import { command, constant, map, message, object } from "@optique/core";
import { resolveHermesHome } from "../hermes/hermes_home.ts";
import { uninstallPlugin } from "../hermes/install.ts";
import { hermesHomeOption } from "./_hermes_home_option.ts";
import { translateInstallError } from "./_hermes_install.ts";
import type { Runner } from "./_runner.ts";

/** `vcc hermes uninstall [--hermes-home DIR]`. */
export const hermesUninstallCommand = command(
  "uninstall",
  map(
    object({ kind: constant("hermes-uninstall"), hermesHome: hermesHomeOption }),
    (args): Runner => async (out) => {
      const home = resolveHermesHome(args.hermesHome);
      const report = await uninstallPlugin(home, new Date()).catch(translateInstallError);
      out.stdout(`Removed ${report.pluginDirectory}\n`);
      if (report.configBackup) out.stdout(`Backed up config.yaml to ${report.configBackup}\n`);
      if (report.configChanged) out.stdout("Deselected vcc in config.yaml\n");
      if (report.stillSelected) {
        out.stdout(
          "config.yaml selected vcc before the install and still does: change it by hand\n",
        );
      }
      out.stdout("Restart Hermes to go back to its built-in compressor\n");
      return 0;
    },
  ),
  {
    description: message`Remove the Hermes plugin and put config.yaml back as it was`,
    footer: message`Example: vcc hermes uninstall --hermes-home ~/.hermes`,
  },
);
