import { message, option, optional } from "@optique/core";
import { string } from "@optique/core/valueparser";

/** `--hermes-home DIR`, shared by the `vcc hermes` subcommands. */
export const hermesHomeOption = optional(option("--hermes-home", string({ metavar: "DIR" }), {
  description: message`Hermes's home directory (default: $HERMES_HOME, else ~/.hermes)`,
}));
