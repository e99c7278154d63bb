import { command, message, or } from "@optique/core";
import { hermesDoctorCommand } from "./_hermes_doctor.ts";
import { hermesInstallCommand } from "./_hermes_install.ts";
import { hermesUninstallCommand } from "./_hermes_uninstall.ts";

/** `vcc hermes install|uninstall|doctor`: the Hermes plugin's installation. */
export const hermesCommand = command(
  "hermes",
  or(hermesInstallCommand, hermesUninstallCommand, hermesDoctorCommand),
  {
    description: message`Install, remove or check the Hermes Agent plugin`,
    footer: message`Example: vcc hermes install --activate && vcc hermes doctor`,
  },
);
