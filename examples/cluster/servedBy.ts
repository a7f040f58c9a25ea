// Which instance (or worker) answered, for the cluster tests and for whoever reads the logs of
// a load balancer: several instances (`scripts/cluster.sh`) or workers (`./workers.ts`) of the
// demo name themselves in `STRATA_INSTANCE`.
import type { MiddlewareContext, StrataMiddleware } from "effect-strata";

/** Adds `X-Strata-Instance: <name>` to every response (error responses included). */
export const servedBy = (name: string): StrataMiddleware => ({
  use(context: MiddlewareContext) {
    context.setHeader("x-strata-instance", name);
  },
});
