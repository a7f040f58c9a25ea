import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { StaticRoutes } from "./StaticRoutes.js";

/** A route found for a request, with its path parameters and parsed query. */
export interface FoundRoute {
  readonly handler: HttpLayerRouter.Route<unknown, unknown>;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly searchParams: Readonly<Record<string, string | Array<string>>>;
}

/** What the fast server needs from the router: a synchronous lookup, when it is allowed. */
export interface FastRoutes {
  /** `false` once platform middleware is registered: requests must then go through the stock router. */
  readonly eligible: () => boolean;
  /** The route for `method` and `url` (HEAD falls back to GET), as the stock router would pick it. */
  readonly find: (method: string, url: string) => FoundRoute | undefined;
}

/** The key under which a {@link FastRouter} exposes its {@link FastRoutes}. */
export const FastRoutesId: unique symbol = Symbol.for("effect-strata/server/FastRoutes");

/** An `HttpLayerRouter.HttpRouter` that can also be dispatched synchronously. */
export interface FastRouter extends HttpLayerRouter.HttpRouter {
  readonly [FastRoutesId]: FastRoutes;
}

/** `true` for a router made by {@link make}. */
export const isFastRouter = (router: HttpLayerRouter.HttpRouter): router is FastRouter =>
  FastRoutesId in router;

/** The prefix of the (private) context keys under which `HttpLayerRouter` keeps route middleware. */
const middlewareKey = "@effect/platform/HttpLayerRouter/Middleware-";

/** `true` when route middleware (`HttpLayerRouter.middleware`) is in scope for routes being added. */
const hasRouteMiddleware = (context: Context.Context<never>): boolean => {
  for (const key of context.unsafeMap.keys()) if (key.startsWith(middlewareKey)) return true;
  return false;
};

/**
 * Whether {@link hasRouteMiddleware} sees route middleware in this version of
 * `@effect/platform`, checked by building a middleware Layer. Should it not, every request goes
 * through the stock router (one debug log says so), which always applies route middleware.
 */
const routeMiddlewareVisible: Effect.Effect<boolean> = Effect.scoped(
  Effect.flatMap(
    Layer.build(HttpLayerRouter.middleware((app) => app).layer as Layer.Layer<never>),
    (context) =>
      hasRouteMiddleware(context)
        ? Effect.succeed(true)
        : Effect.as(
            Effect.logDebug(
              "Strata: HttpLayerRouter keeps route middleware otherwise than expected; requests take the stock dispatch",
            ),
            false,
          ),
  ),
);

/**
 * The router Strata serves with. It is the stock `HttpLayerRouter` router (every route is added
 * to it, so `prefixed`, route middleware and global middleware keep their exact semantics) and
 * it mirrors the plain routes into its own find-my-way table, which lets the server find a route
 * before it starts the request's fiber. The first route middleware or global middleware makes
 * it step aside: the server then dispatches through the stock router.
 */
export const make: Effect.Effect<FastRouter> = Effect.gen(function* () {
  const stock = yield* HttpLayerRouter.make;
  const table = HttpLayerRouter.FindMyWay.make<HttpLayerRouter.Route<unknown, unknown>>(
    yield* HttpLayerRouter.RouterConfig,
  );
  let eligible = yield* routeMiddlewareVisible;
  const statics = new StaticRoutes();
  const register = (routes: ReadonlyArray<HttpLayerRouter.Route<unknown, unknown>>) => {
    for (const route of routes) {
      if (route.method === "*") table.all(route.path, route);
      else {
        table.on(route.method, route.path, route);
        statics.add(route);
      }
    }
  };

  const wrap = (
    target: HttpLayerRouter.HttpRouter,
    prefix: string | undefined,
  ): HttpLayerRouter.HttpRouter => {
    const addAll = ((routes: ReadonlyArray<HttpLayerRouter.Route<unknown, unknown>>) =>
      Effect.contextWithEffect((context: Context.Context<never>) => {
        if (hasRouteMiddleware(context)) eligible = false;
        else
          register(prefix === undefined ? routes : routes.map(HttpLayerRouter.prefixRoute(prefix)));
        return target.addAll(routes as never);
      })) as HttpLayerRouter.HttpRouter["addAll"];
    return HttpLayerRouter.HttpRouter.of({
      [HttpLayerRouter.TypeId]: HttpLayerRouter.TypeId,
      prefixed: (next) =>
        wrap(
          target.prefixed(next),
          prefix === undefined ? next : HttpLayerRouter.prefixPath(prefix, next),
        ),
      addAll,
      add: ((method, path, handler, options) =>
        addAll([
          HttpLayerRouter.route(method, path, handler, options),
        ] as never)) as HttpLayerRouter.HttpRouter["add"],
      addGlobalMiddleware: ((middleware) =>
        Effect.suspend(() => {
          eligible = false;
          return target.addGlobalMiddleware(middleware);
        })) as HttpLayerRouter.HttpRouter["addGlobalMiddleware"],
      asHttpEffect: () => target.asHttpEffect(),
    });
  };

  const fast: FastRoutes = {
    eligible: () => eligible,
    find: (method, url) => {
      const found =
        statics.find(method, url) ??
        table.find(method, url) ??
        (method === "HEAD" ? table.find("GET", url) : undefined);
      return found as FoundRoute | undefined;
    },
  };
  return Object.assign(wrap(stock, undefined), { [FastRoutesId]: fast });
});
