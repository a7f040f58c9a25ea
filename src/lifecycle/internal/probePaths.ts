import type { HealthOptions } from "../Health.js";

/** The paths `Health.routes` serves with these options. */
export const probePaths = (options: HealthOptions = {}): ReadonlyArray<string> =>
  [options.livenessPath ?? "/health", options.readinessPath ?? "/ready"].filter(
    (path): path is string => path !== false,
  );
