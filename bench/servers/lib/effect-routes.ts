// Routes shared by effect-platform, effect-platform-notracer and strata-effect.
//
// The modules are passed in rather than imported so that strata-effect can build
// the very same routes with the copy of `effect` / `@effect/platform` that Strata's
// dist resolves (the root project's node_modules), while the stock servers use the
// bench package's own copy. Types come from the bench copy (same versions).

import type * as HttpLayerRouterNS from "@effect/platform/HttpLayerRouter";
import type * as HttpServerResponseNS from "@effect/platform/HttpServerResponse";
import type * as ContextNS from "effect/Context";
import type * as EffectNS from "effect/Effect";
import type * as LayerNS from "effect/Layer";

export interface EffectModules {
  readonly Context: typeof ContextNS;
  readonly Effect: typeof EffectNS;
  readonly Layer: typeof LayerNS;
  readonly HttpLayerRouter: typeof HttpLayerRouterNS;
  /**
   * How a route answers JSON: `HttpServerResponse.json` on the stock servers, Strata's
   * `jsonResponse` (its documented JSON response for Effect routes) on strata-effect.
   */
  readonly json: (
    body: unknown,
    status?: number,
  ) => EffectNS.Effect<HttpServerResponseNS.HttpServerResponse, unknown>;
}

export interface User {
  readonly id: number;
  readonly name: string;
}

const INT = /^-?\d+$/;
const BAD_ID = {
  statusCode: 400,
  message: "Validation failed (numeric string is expected)",
  error: "Bad Request",
};

export const makeApp = (m: EffectModules) => {
  const { Context, Effect, Layer, HttpLayerRouter, json } = m;

  class UsersService extends Context.Tag("bench/UsersService")<
    UsersService,
    { readonly find: (id: number) => User }
  >() {}

  const UsersServiceLive = Layer.succeed(UsersService, {
    find: (id: number): User => ({ id, name: `user ${id}` }),
  });

  const HelloRoute = HttpLayerRouter.add("GET", "/hello", json({ hello: "world" }));

  const UsersRoute = HttpLayerRouter.add(
    "GET",
    "/users/:id",
    Effect.gen(function* () {
      const { id } = yield* HttpLayerRouter.params;
      if (id === undefined || !INT.test(id)) {
        return yield* json(BAD_ID, 400);
      }
      const users = yield* UsersService;
      return yield* json(users.find(Number.parseInt(id, 10)));
    }),
  );

  const routes = Layer.mergeAll(HelloRoute, UsersRoute);

  return { routes, UsersService, UsersServiceLive };
};
