/**
 * The two ways `config.yaml` can stop `vcc hermes install --activate` or `uninstall` before they
 * write anything: the file is unreadable to Hermes too, or it is readable but the edit could not
 * keep everything else exactly as it is.
 *
 * @module
 */

/**
 * This `config.yaml` is not valid for Hermes's readers (not UTF-8, not YAML, a key twice, not one
 * mapping, a tab where a reader takes none): a Hermes release that cannot read it runs on its
 * defaults. The message says what is wrong and on which line, then what to do when that is known.
 */
export class ConfigUnreadable extends Error {
  /** What is wrong, and on which line. */
  readonly problem: string;
  /** What to do about it, when there is more to say than to correct that line. */
  readonly fix: string | undefined;

  constructor(problem: string, fix?: string) {
    super(fix === undefined ? problem : `${problem}; ${fix}`);
    this.name = "ConfigUnreadable";
    this.problem = problem;
    this.fix = fix;
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
