/** A setting that stops the start: its message names the variable at fault, in one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
