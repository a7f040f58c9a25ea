import * as Context from "effect/Context";

/**
 * The paths of the health probes (`/health` and `/ready` unless configured otherwise). The rate
 * limit and logger middleware skip them by default (a probe every few seconds should neither
 * use up a client's budget nor flood the log); a `StrataApp` provides its configured paths
 * when it builds its middleware.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export class HealthPaths extends Context.Reference<HealthPaths>()(
  "effect-strata/lifecycle/HealthPaths",
  {
    defaultValue: (): ReadonlyArray<string> => ["/health", "/ready"],
  },
) {}
