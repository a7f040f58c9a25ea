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
   * How a route answers JSON, as a plain response built where it is returned:
   * `HttpServerResponse.unsafeJson` on the stock servers, Strata's `jsonResponse` (its
   * documented JSON response for Effect routes) on strata-effect.
   */
  readonly json: (body: unknown, status?: number) => HttpServerResponseNS.HttpServerResponse;
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

  const HelloRoute = HttpLayerRouter.add(
    "GET",
    "/hello",
    Effect.sync(() => json({ hello: "world" })),
  );

  /** `GET /users/:id` answered with `users`. */
  const findUser = (users: UsersService["Type"]) =>
    Effect.gen(function* () {
      const { id } = yield* HttpLayerRouter.params;
      if (id === undefined || !INT.test(id)) return json(BAD_ID, 400);
      return json(users.find(Number.parseInt(id, 10)));
    });

  // The service is read once, when the route is added: the Effect form of a controller
  // receiving its dependencies in its constructor.
  const UsersRoute = HttpLayerRouter.use((router) =>
    Effect.flatMap(UsersService, (users) => router.add("GET", "/users/:id", findUser(users))),
  );

  // The same route reading the service from the request's context every time.
  const UsersTagRoute = HttpLayerRouter.add(
    "GET",
    "/users-tag/:id",
    Effect.flatMap(UsersService, findUser),
  );

  const routes = Layer.mergeAll(HelloRoute, UsersRoute, UsersTagRoute);

  return { routes, UsersService, UsersServiceLive };
};
