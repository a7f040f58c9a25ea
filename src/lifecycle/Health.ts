import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { jsonResponse } from "../http/TextResponse.js";
import type { HealthCheckManager } from "./HealthCheckManager.js";

/**
 * Where the health probes answer; `false` leaves that probe out.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export interface HealthOptions {
  /** Liveness: the process is up (default `/health`). */
  readonly livenessPath?: string | false;
  /** Readiness: every registered check is up (default `/ready`). */
  readonly readinessPath?: string | false;
}

const noStore = { "cache-control": "no-store" } as const;

/**
 * The health probes as routes (the Effect face; a `StrataApp` adds them itself):
 * `GET /health` answers 200 `{ "status": "up" }` while the process runs, shutting down included;
 * `GET /ready` runs every check of `manager` and answers 200 `{ "status": "up", "checks": [...] }`,
 * or 503 `{ "status": "down", "checks": [...] }` where the checks that failed say `down`. Once the
 * `ShutdownManager` given to `manager` is shutting down, it answers 503 with the single check
 * `{ "name": "shutdown", "status": "down", "details": { "error": "Shutting down" } }`. Neither is
 * cached. Provide `HealthPaths` when the paths differ from the defaults, so that the rate limit
 * and logger middleware still skip them.
 *
 * @since 0.1.0
 * @category lifecycle
 */
export const routes = (
  manager: HealthCheckManager,
  options: HealthOptions = {},
): Layer.Layer<never, never, HttpLayerRouter.HttpRouter> =>
  HttpLayerRouter.addAll(probeRoutes(manager, options));

/** The routes of {@link routes}, to add with others in one Layer. @since 0.1.0 @category lifecycle */
export const probeRoutes = (
  manager: HealthCheckManager,
  options: HealthOptions = {},
): Array<HttpLayerRouter.Route<never, never>> => {
  const liveness = options.livenessPath ?? "/health";
  const readiness = options.readinessPath ?? "/ready";
  const alive = jsonResponse({ status: "up" }, { headers: noStore });
  const probes: Array<HttpLayerRouter.Route<never, never>> = [];
  if (liveness !== false) {
    probes.push(
      HttpLayerRouter.route("GET", liveness as HttpLayerRouter.PathInput, Effect.succeed(alive)),
    );
  }
  if (readiness !== false) {
    probes.push(
      HttpLayerRouter.route(
        "GET",
        readiness as HttpLayerRouter.PathInput,
        Effect.map(manager.run, (checks) => {
          const up = checks.every((check) => check.status === "up");
          return jsonResponse(
            { status: up ? "up" : "down", checks },
            { status: up ? 200 : 503, headers: noStore },
          );
        }),
      ),
    );
  }
  return probes;
};
