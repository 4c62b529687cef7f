/** Thrown for a bad environment value; main() prints its message and exits 1. */
export class ConfigError extends Error {}
