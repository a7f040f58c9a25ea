import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { describe, expect, it, layer } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import { StrataServer } from "../../src/effect/index.js";
import {
  CodeRejected,
  InvalidRedirect,
  InvalidState,
  type OAuthError,
  ProfileFetchFailed,
  ProviderErrorResponse,
  ProviderTimeout,
  ProviderUnreachable,
  TokenResponseMalformed,
  TooManyTransactions,
  TransactionStoreFull,
  UnknownProvider,
} from "../../src/oauth/index.js";
import { baseUrlOf } from "../support/baseUrl.js";

/** One of each, with every internal field set to something that must not reach a client. */
const errors: ReadonlyArray<OAuthError> = [
  new UnknownProvider(),
  new InvalidState({ provider: "github", reason: "state_mismatch" }),
  new ProviderErrorResponse({ provider: "github", oauthError: "access_denied" }),
  new CodeRejected({ provider: "github", oauthError: "invalid_grant" }),
  new TokenResponseMalformed({ provider: "github", status: 299 }),
  new ProviderUnreachable({ provider: "github", status: 597, detail: "upstream-detail" }),
  new ProviderTimeout({ provider: "github", operation: "token" }),
  new ProfileFetchFailed({ provider: "github", reason: "too_large", status: 598 }),
  new InvalidRedirect({ parameter: "successRedirect" }),
  new TransactionStoreFull(),
  new TooManyTransactions({ retryAfter: 42 }),
];

const bodyOf = (error: OAuthError) =>
  JSON.stringify({ statusCode: error.httpStatus, message: error.publicMessage, error: error.code });

/** What a client may see: none of the fields kept for the log. */
const expectNothingInternal = (text: string) =>
  expect(text).not.toMatch(/github|state_mismatch|upstream-detail|29[89]|59[78]|successRedirect/);

describe("OAuth failures answer for themselves", () => {
  it.each(errors.map((error) => [error._tag, error] as const))(
    "%s: its status, the standard body plus its stable error code",
    (_tag, error) =>
      Effect.gen(function* () {
        expect(Respondable.isRespondable(error)).toBe(true);
        const response = yield* Respondable.toResponse(error);
        expect(response.status).toBe(error.httpStatus);
        const web = HttpServerResponse.toWeb(response);
        expect(web.headers.get("content-type")).toBe("application/json");
        const text = yield* Effect.promise(() => web.text());
        expect(text).toBe(bodyOf(error));
        expectNothingInternal(text);
      }).pipe(Effect.runPromise),
  );
});

/** An app's own routes letting each OAuth failure escape. */
const routes = HttpLayerRouter.addAll(
  errors.map((error) => HttpLayerRouter.route("GET", `/escape/${error._tag}`, Effect.fail(error))),
);

const listen = { port: 0, host: "127.0.0.1" } as const;

class Servers extends Context.Tag("test/OAuthErrorServers")<
  Servers,
  { readonly strata: string; readonly stock: string }
>() {}

const servers = Layer.scoped(
  Servers,
  Effect.all({
    strata: baseUrlOf(
      StrataServer.serve(routes).pipe(Layer.provideMerge(StrataServer.layerNode(listen))),
    ),
    stock: baseUrlOf(
      HttpLayerRouter.serve(routes).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, listen)),
      ),
    ),
  }),
).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None)));

const get = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url);
    return { status: response.status, text: await response.text() };
  });

layer(servers, { excludeTestServices: true })("an OAuth failure escaping an app's route", (it) => {
  it.effect.each(errors.map((error) => [error._tag, error] as const))(
    "%s: the same answer on Strata's server and on the stock one, nothing internal in it",
    ([tag, error]) =>
      Effect.gen(function* () {
        const { strata, stock } = yield* Servers;
        const expected = { status: error.httpStatus, text: bodyOf(error) };
        expect(yield* get(`${strata}/escape/${tag}`)).toEqual(expected);
        expect(yield* get(`${stock}/escape/${tag}`)).toEqual(expected);
        expectNothingInternal(expected.text);
      }),
  );
});
