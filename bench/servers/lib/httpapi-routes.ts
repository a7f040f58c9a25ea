// The HttpApi shared by effect-platform-httpapi and strata-httpapi: `GET /hello` and
// `GET /users/:id` declared once (paths, Schemas), implemented with HttpApiBuilder and added to
// the HttpLayerRouter with `HttpLayerRouter.addHttpApi`, as an HttpApi app serves them.
//
// The modules are passed in, as in effect-routes.ts, so that strata-httpapi builds the very same
// API with the copy of effect / @effect/platform that Strata's dist resolves. Types come from the
// bench copy (same versions).

import type * as HttpApiNS from "@effect/platform/HttpApi";
import type * as HttpApiBuilderNS from "@effect/platform/HttpApiBuilder";
import type * as HttpApiEndpointNS from "@effect/platform/HttpApiEndpoint";
import type * as HttpApiGroupNS from "@effect/platform/HttpApiGroup";
import type * as HttpLayerRouterNS from "@effect/platform/HttpLayerRouter";
import type * as NodeHttpServerNS from "@effect/platform-node/NodeHttpServer";
import type * as ContextNS from "effect/Context";
import type * as EffectNS from "effect/Effect";
import type * as LayerNS from "effect/Layer";
import type * as SchemaNS from "effect/Schema";

export interface HttpApiModules {
  readonly Context: typeof ContextNS;
  readonly Effect: typeof EffectNS;
  readonly Layer: typeof LayerNS;
  readonly Schema: typeof SchemaNS;
  readonly HttpApi: typeof HttpApiNS;
  readonly HttpApiBuilder: typeof HttpApiBuilderNS;
  readonly HttpApiEndpoint: typeof HttpApiEndpointNS;
  readonly HttpApiGroup: typeof HttpApiGroupNS;
  readonly HttpLayerRouter: typeof HttpLayerRouterNS;
  readonly NodeHttpServer: typeof NodeHttpServerNS;
  /**
   * Builders to use instead of `HttpApiBuilder.group` and `HttpLayerRouter.addHttpApi` (same
   * signatures): strata-httpapi passes Strata's `StrataHttpApi`, as an app served by Strata would.
   */
  readonly builders?: {
    readonly group: typeof HttpApiBuilderNS.group;
    readonly addHttpApi: typeof HttpLayerRouterNS.addHttpApi;
  };
}

export const makeHttpApiApp = (m: HttpApiModules) => {
  const { Context, Effect, Layer, Schema, HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } =
    m;

  const User = Schema.Struct({ id: Schema.Number, name: Schema.String });

  // `/users/abc` is a 400 (HttpApiDecodeError): the path Schema refuses it.
  const Api = HttpApi.make("bench").add(
    HttpApiGroup.make("bench")
      .add(
        HttpApiEndpoint.get("hello", "/hello").addSuccess(Schema.Struct({ hello: Schema.String })),
      )
      .add(
        HttpApiEndpoint.get("user", "/users/:id")
          .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
          .addSuccess(User),
      ),
  );

  class UsersService extends Context.Tag("bench/HttpApiUsersService")<
    UsersService,
    { readonly find: (id: number) => { readonly id: number; readonly name: string } }
  >() {}

  const UsersServiceLive = Layer.succeed(UsersService, {
    find: (id: number) => ({ id, name: `user ${id}` }),
  });

  // The service is read once, when the handlers are built.
  const group = m.builders?.group ?? HttpApiBuilder.group;
  const addHttpApi = m.builders?.addHttpApi ?? m.HttpLayerRouter.addHttpApi;
  const Handlers = group(Api, "bench", (handlers) =>
    Effect.map(UsersService, (users) =>
      handlers
        .handle("hello", () => Effect.succeed({ hello: "world" }))
        .handle("user", ({ path }) => Effect.succeed(users.find(path.id))),
    ),
  );

  const routes = addHttpApi(Api).pipe(
    Layer.provide(Handlers),
    Layer.provide(m.NodeHttpServer.layerContext),
  );

  return { Api, routes, UsersServiceLive };
};
