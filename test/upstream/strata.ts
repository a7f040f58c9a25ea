// Strata's wiring for @effect/platform's own suites (see run.mjs): what each shim puts in place
// of the platform's server, test server and document.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as OpenApi from "@effect/platform/OpenApi";
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { buildDocument } from "../../src/openapi/BuildDocument.js";
import type { OpenApiOptions } from "../../src/openapi/OpenApiOptions.js";
import { NodeServer } from "../../src/server/internal/FastPath.js";
import * as StrataServer from "../../src/server/StrataServer.js";

export { normalizeUrlParams } from "../../src/openapi/NormalizeUrlParams.js";
export * as StrataHttpApi from "../../src/openapi/StrataHttpApi.js";
export { StrataServer };

const freePort = () => NodeServer.layer({ port: 0, host: "127.0.0.1" });

/** `NodeHttpServer.layerTest`'s services, with Strata's server in place of the platform's. */
export const layerTest = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(Layer.merge(freePort(), NodeHttpServer.layerContext)),
);

/** `HttpLayerRouter.toWebHandler`: the routes served by `StrataServer.serve` on Strata's server. */
export const toWebHandler = ((appLayer: Parameters<typeof StrataServer.serve>[0]) => {
  const runtime = ManagedRuntime.make(
    StrataServer.serve(appLayer).pipe(Layer.provideMerge(freePort())) as Layer.Layer<
      HttpServer.HttpServer,
      unknown
    >,
  );
  const origin = runtime.runPromise(
    Effect.map(HttpServer.HttpServer, (server) => {
      const address = server.address as HttpServer.TcpAddress;
      return `http://127.0.0.1:${address.port}`;
    }),
  );
  return {
    handler: async (request: Request) => {
      const url = new URL(request.url);
      const body = request.body === null ? undefined : await request.arrayBuffer();
      return fetch(`${await origin}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body,
      });
    },
    dispose: () => runtime.dispose(),
  };
}) as unknown as typeof HttpLayerRouter.toWebHandler;

/** `OpenApi.fromApi(api, options)`: the document `OpenApiDocs.document({ apis: [api], ...options })` builds. */
export const fromApi = ((
  api: NonNullable<OpenApiOptions["apis"]>[number],
  options?: Pick<OpenApiOptions, "additionalPropertiesStrategy">,
) =>
  Effect.runSync(
    buildDocument({ ...options, apis: [api] }, {}),
  )) as unknown as typeof OpenApi.fromApi;
