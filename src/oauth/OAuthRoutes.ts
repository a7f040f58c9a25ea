/**
 * The built-in routes, as `HttpLayerRouter` routes both faces mount:
 *
 * - `GET /auth/:provider` starts an authorization: a 302 to the provider, the transaction in
 *   the transaction cookie.
 * - `GET /auth/:provider/callback` completes it: the callback result as JSON, the handler's
 *   value or response, or a redirect to the validated `successRedirect` / `errorRedirect`.
 *   With `session`, it signs the user in first (a new session) and redirects.
 * - With `session`: `GET /auth/session` answers the signed-in user as JSON (401 without one)
 *   and `POST /auth/logout` ends the session (403 cross-site). These static paths win over
 *   `/auth/:provider`; `session` and `logout` are reserved provider names.
 * - With `session.link`: `GET /auth/:provider?intent=link` starts linking the provider account
 *   to the signed-in user (401 `session_required` without a session, 400 `invalid_intent` for
 *   any other intent or without `link`, 403 from another site, judged as a logout is); the
 *   intent is kept in the transaction, so the state binds it, and its callback links instead of
 *   signing in (the session must still be there).
 *
 * Statuses: unknown provider 404; missing, invalid, expired or replayed state 401
 * `Invalid state`; provider `error=` 401; code rejected 401; provider unreachable, 5xx or
 * malformed 502; provider too slow 504; a bad redirect parameter 400; an in-process
 * transaction store full of live entries 503; a client holding the store's `maxPerClient`
 * entries 429 `too_many_transactions` with `Retry-After`. Bodies have the standard
 * shape plus a stable `error` code. Every response carries `Cache-Control: no-store` and
 * `Referrer-Policy: no-referrer`; every callback outcome clears the transaction cookie.
 *
 * @since 0.1.0
 */
import type * as HttpApi from "@effect/platform/HttpApi";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import type * as Layer from "effect/Layer";
import { describeRoute } from "../openapi/RouteDescription.js";
import { sessionRoutes } from "../session/internal/sessionRoutes.js";
import { authorizeRoute } from "./internal/authorizeRoute.js";
import { callbackRoute } from "./internal/callbackRoute.js";
import { routeSetup, type StartupContext } from "./internal/routeSetup.js";
import { OAuth } from "./OAuth.js";
import { OAuthConfigError } from "./OAuthProvider.js";
import type { OAuthRoutesOptions } from "./OAuthRoutesOptions.js";
import { validateRedirect } from "./RedirectPolicy.js";
import type { ProviderName } from "./SupportedProvider.js";
import type { TransactionStore } from "./TransactionStore.js";

export type {
  OAuthRoutesOptions,
  OAuthRoutesSession,
  OAuthSuccessHandler,
} from "./OAuthRoutesOptions.js";

/**
 * The routes, with the services they use captured (so they can be added to any router):
 * `GET :provider`, `GET :provider/callback`, and with `session` `GET session` and `POST logout`.
 *
 * @since 0.1.0
 * @category routes
 */
export const routes = <R = never, A = unknown, E = unknown, RS = never, ES = never>(
  options: OAuthRoutesOptions<R, A, E, RS, ES> = {},
): Effect.Effect<
  ReadonlyArray<HttpLayerRouter.Route<never, never>>,
  OAuthConfigError,
  OAuth | TransactionStore | StartupContext<R | RS>
> =>
  Effect.gen(function* () {
    const setup = yield* routeSetup<StartupContext<R | RS>>(options);
    const base = options.path ?? "/auth";
    // Their OpenAPI description, made only when an app's document is built.
    const description = describe(base, setup.oauth.providers, described(options));
    const list: Array<HttpLayerRouter.Route<never, never>> = [
      describeRoute(
        HttpLayerRouter.route("GET", `${base}/:provider`, authorizeRoute(setup)),
        description,
      ),
      describeRoute(
        HttpLayerRouter.route("GET", `${base}/:provider/callback`, callbackRoute(setup)),
        description,
      ),
    ] as Array<HttpLayerRouter.Route<never, never>>;
    if (setup.sessions !== undefined && options.session !== undefined) {
      // A logout lands on a path or an allowed redirect origin (SECURITY.md 29).
      const logoutRedirect = validateRedirect(
        options.session.logoutRedirect,
        setup.redirectOrigins,
      );
      if (Either.isLeft(logoutRedirect)) {
        return yield* new OAuthConfigError({
          message: "The routes' session.logoutRedirect is refused by the redirect policy",
        });
      }
      const served = yield* sessionRoutes({
        base,
        sessions: setup.sessions,
        appOrigins: setup.appOrigins,
        logoutRedirect: logoutRedirect.right,
      });
      list.push(...served.map((route) => describeRoute(route, description)));
    }
    return list;
  });

/** What the routes' description depends on in their options. */
const described = <R, A, E, RS, ES>(options: OAuthRoutesOptions<R, A, E, RS, ES>) => ({
  handler: options.onSuccess !== undefined,
  ...(options.session === undefined
    ? {}
    : {
        session: {
          profile: options.session.from === undefined,
          logoutRedirect: options.session.logoutRedirect !== undefined,
          link: options.session.link !== undefined,
        },
      }),
});

const describe = (
  path: `/${string}`,
  providers: ReadonlyArray<ProviderName>,
  options: ReturnType<typeof described>,
) =>
  Effect.map(
    Effect.promise(() => import("./OAuthApi.js")),
    (api) => api.make({ path, providers, ...options }),
  );

/**
 * The OpenAPI description of the routes `layer(options)` adds, as an `HttpApi` (imported on
 * demand): give it to `OpenApiDocs.layer({ apis: [OAuthRoutes.api(options)] })`. A classic app
 * (`OAuthModule`) describes them in its document by itself.
 *
 * @since 0.1.0
 * @category routes
 */
export const api = <R = never, A = unknown, E = unknown, RS = never, ES = never>(
  options: OAuthRoutesOptions<R, A, E, RS, ES> = {},
): Effect.Effect<HttpApi.HttpApi.Any, never, OAuth> =>
  Effect.flatMap(OAuth, (oauth) =>
    describe(options.path ?? "/auth", oauth.providers, described(options)),
  );

/**
 * The built-in routes as a Layer for `HttpLayerRouter` (the Effect face).
 *
 * @example
 * declare const OAuthLive: Layer.Layer<OAuth>; // OAuth.layer({ providers: { github: { ... } } })
 *
 * const UserSession = Session.make(OAuthSessionUser);
 * const Me = HttpLayerRouter.add("GET", "/me", Effect.map(UserSession.require, jsonResponse));
 * // session: {} signs the profile in; or session: { from: (oauth) => toAppUser(oauth) }
 * const Routes = Layer.mergeAll(OAuthRoutes.layer({ session: {} }), Me);
 *
 * const App = StrataServer.serve(Routes).pipe(
 *   Layer.provide(OAuthLive),
 *   Layer.provide(TransactionStore.layerCookie.pipe(Layer.provide(TransactionSealer.layer()))),
 *   Layer.provide(UserSession.layer().pipe(Layer.provide(CookieSessionStore.layer()))),
 *   Layer.provide(StrataServer.layerNode({ port: 3000 })),
 * );
 *
 * @since 0.1.0
 * @category routes
 */
export const layer = <R = never, A = unknown, E = unknown, RS = never, ES = never>(
  options: OAuthRoutesOptions<R, A, E, RS, ES> = {},
): Layer.Layer<
  never,
  OAuthConfigError,
  HttpLayerRouter.HttpRouter | OAuth | TransactionStore | StartupContext<R | RS>
> =>
  HttpLayerRouter.addAll(routes(options)) as Layer.Layer<
    never,
    OAuthConfigError,
    HttpLayerRouter.HttpRouter | OAuth | TransactionStore | StartupContext<R | RS>
  >;
