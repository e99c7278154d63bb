/**
 * The two ways `config.yaml` can stop `vcc hermes install --activate` or `uninstall` before they
 * write anything: the file is unreadable to Hermes too, or it is readable but the edit could not
 * keep everything else exactly as it is.
 *
 * @module
 */

/**
 * This `config.yaml` is not valid for Hermes's readers (not UTF-8, not YAML, a key twice, not one
 * mapping): a Hermes release that cannot read it runs on its defaults. The message says what is
 * wrong and on which line.
 */
export class ConfigUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigUnreadable";
  }
}

/**
 * `config.yaml` uses a shape, or is in a state, that vcc does not change without risk of altering
 * more than the keys it means to; the message says what is in the way.
 */
export class YamlEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "YamlEditError";
  }
}
