// An Effect-face app with sessions, served over real HTTP on loopback with its log lines kept:
// sign-in, protected and optional routes, rotation, sign-out, "sign out everywhere", and a route
// that never touches the session. The store under it is the test's choice.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { jsonResponse } from "../../../src/index.js";
import {
  Session,
  type SessionOptions,
  SessionStore,
  type SessionStoreService,
} from "../../../src/session/index.js";
import { serveTest } from "../../../src/testing/index.js";
import { baseUrlOf } from "../../support/baseUrl.js";

/** The session data of the test apps. */
export const User = Schema.Struct({ id: Schema.String, name: Schema.String });
/** A user of the test apps. */
export type User = typeof User.Type;

/** The typed session of the test apps. */
export const UserSession = Session.make(User);

/** The user the test apps sign in as `/login/:id`. */
export const userOf = (id: string): User => ({ id, name: `user ${id}` });

const noContent = HttpServerResponse.empty({ status: 204 });

/** The routes of the test app. */
export const Routes = HttpLayerRouter.addAll([
  HttpLayerRouter.route(
    "GET",
    "/me",
    Effect.map(UserSession.require, (user) => jsonResponse(user)),
  ),
  HttpLayerRouter.route(
    "GET",
    "/maybe",
    Effect.map(UserSession.current, (user) => jsonResponse({ user: Option.getOrNull(user) })),
  ),
  // Read twice in one request: loaded once.
  HttpLayerRouter.route(
    "GET",
    "/twice",
    Effect.zipWith(UserSession.require, UserSession.require, (a, b) => jsonResponse([a, b])),
  ),
  HttpLayerRouter.route(
    "POST",
    "/login/:id",
    Effect.gen(function* () {
      const { id } = yield* HttpLayerRouter.params;
      yield* UserSession.create(userOf(id ?? ""));
      return noContent;
    }),
  ),
  HttpLayerRouter.route("POST", "/rotate", Effect.as(UserSession.rotate, noContent)),
  HttpLayerRouter.route("POST", "/logout", Effect.as(UserSession.destroy, noContent)),
  HttpLayerRouter.route(
    "POST",
    "/everywhere/:id",
    Effect.gen(function* () {
      const { id } = yield* HttpLayerRouter.params;
      yield* UserSession.destroyAllFor(id ?? "");
      return noContent;
    }),
  ),
  HttpLayerRouter.route("GET", "/open", Effect.succeed(jsonResponse({ open: true }))),
]);

/** How often each store operation was called. */
export interface StoreCalls {
  create: number;
  load: number;
  /** Calls of the optional synchronous `loadNow` (stores that have it). */
  loadNow: number;
  update: number;
  destroy: number;
  destroyAllFor: number;
}

/** A {@link StoreCalls} with every count at 0. */
export const noStoreCalls = (): StoreCalls => ({
  create: 0,
  load: 0,
  loadNow: 0,
  update: 0,
  destroy: 0,
  destroyAllFor: 0,
});

/** `store` with its calls counted in `calls` (its `loadNow` kept, if it has one). */
export const countingStore = <E>(
  store: Layer.Layer<SessionStore, E>,
  calls: StoreCalls,
): Layer.Layer<SessionStore, E> =>
  Layer.effect(
    SessionStore,
    Effect.map(SessionStore, (inner): SessionStoreService => {
      const counted =
        <Args extends ReadonlyArray<unknown>, B, E>(
          name: keyof StoreCalls,
          call: (...args: Args) => Effect.Effect<B, E>,
        ) =>
        (...args: Args) =>
          Effect.suspend(() => {
            calls[name]++;
            return call(...args);
          });
      const loadNow = inner.loadNow;
      return {
        create: counted("create", inner.create),
        load: counted("load", inner.load),
        ...(loadNow === undefined
          ? {}
          : {
              loadNow: (cookieValue: string, now: number) => {
                calls.loadNow++;
                return loadNow(cookieValue, now);
              },
            }),
        update: counted("update", inner.update),
        destroy: counted("destroy", inner.destroy),
        destroyAllFor: counted("destroyAllFor", inner.destroyAllFor),
      };
    }),
  ).pipe(Layer.provide(store));

/** A running test app: its base URL, its log lines and its store's calls. */
export interface SessionApp {
  readonly url: string;
  readonly logs: ReadonlyArray<string>;
  readonly calls: StoreCalls;
}

/** Serves {@link Routes} with sessions on `store` in the current scope. */
export const startSessionApp = <E>(
  store: Layer.Layer<SessionStore, E>,
  options: SessionOptions<User> = {},
) =>
  Effect.gen(function* () {
    const logs: Array<string> = [];
    const calls = noStoreCalls();
    const capture = Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ logLevel, message, annotations, cause }) => {
        const text = Array.isArray(message) ? message.map(String).join(" ") : String(message);
        const causeText = Cause.isEmpty(cause) ? "" : ` ${Cause.pretty(cause)}`;
        logs.push(
          `${logLevel.label} ${text} ${JSON.stringify(Object.fromEntries(annotations))}${causeText}`,
        );
      }),
    );
    const served = serveTest(Routes).pipe(
      Layer.provide(UserSession.layer(options)),
      Layer.provide(countingStore(store, calls)),
      Layer.provide(capture),
    );
    const url = yield* baseUrlOf(served);
    return { url, logs, calls } satisfies SessionApp;
  });
