/**
 * `OAuthModule.forRoot(...)`: the classic face. It provides and exports `OAuthService`, and
 * contributes the built-in routes (unless `routes: false`) to the app.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import { ROUTE_CONTRIBUTOR, type RouteContributor } from "../app/StrataApp.js";
import type { Injector } from "../di/Injector.js";
import { type DynamicModule, Module } from "../di/Module.js";
import type { ProviderNode } from "../di/ModuleGraph.js";
import { makeRequestStore } from "../di/RequestStore.js";
import { Scope } from "../di/Scope.js";
import { StartupError } from "../di/StartupError.js";
import { fromUserCode } from "../http/UserCode.js";
import { Session } from "../session/Session.js";
import { SessionService } from "../session/SessionService.js";
import type { OAuthCallbackHandler } from "./OAuthCallbackHandler.js";
import type { OAuthModuleOptions } from "./OAuthModuleOptions.js";
import { liveProviderSource, OAuthProviderSource } from "./OAuthProviderSource.js";
import { toCallbackResult } from "./OAuthResult.js";
import { type OAuthRoutesSession, routes } from "./OAuthRoutes.js";
import { type HandlerRunner, OAuthRuntime } from "./OAuthRuntime.js";
import { OAuthService } from "./OAuthService.js";

type ContributedRoute = Effect.Effect.Success<ReturnType<RouteContributor>>[number];

/** Runs a call on the handler: a singleton directly, a request-scoped one created and released around it. */
const handlerRunner =
  (injector: Injector, node: ProviderNode): HandlerRunner =>
  (call) =>
    node.scope === Scope.REQUEST
      ? Effect.scoped(
          Effect.flatMap(Effect.scope, (scope) =>
            Effect.flatMap(injector.instance(node, makeRequestStore(scope)), (handler) =>
              fromUserCode(() => call(handler as OAuthCallbackHandler)),
            ),
          ),
        )
      : Effect.flatMap(injector.instance(node, undefined), (handler) =>
          fromUserCode(() => call(handler as OAuthCallbackHandler)),
        );

/** The classic names of the built-in routes, in the order `routes` gives them. */
const routeNames = ["authorize", "callback", "session", "logout"] as const;

/** The `SessionService` of the app (`SessionModule.forRoot`), or the startup error saying so. */
const sessionService = (injector: Injector) => {
  const node = injector.lookup(SessionService);
  return node === undefined
    ? new StartupError({
        message:
          "OAuthModule: `session` needs sessions: import SessionModule.forRoot({ schema, ... }) in the app.",
      })
    : Effect.map(
        Effect.orDie(injector.instance(node, undefined)),
        (service) => service as SessionService,
      );
};

/** Resolves the callback handler through the app's DI, then compiles the built-in routes. */
const contributor =
  (runtime: OAuthRuntime): RouteContributor =>
  (injector) =>
    Effect.gen(function* () {
      const { options } = runtime;
      if (options.callbackHandler !== undefined) {
        const node = injector.lookup(options.callbackHandler);
        if (node === undefined) {
          return yield* new StartupError({
            message: `OAuthModule: the callbackHandler ${options.callbackHandler.name} is not a provider of any module. Add it to the providers of a module.`,
          });
        }
        runtime.handler = handlerRunner(injector, node);
      }
      if (options.routes === false) return [];
      const handler = runtime.handler;
      const run = (session: Parameters<typeof toCallbackResult>[0], provider: string) =>
        (handler as HandlerRunner)((h) => h.handle(toCallbackResult(session), provider));
      // With `session`, the handler's value is the session data (the app's user); a handler
      // with a `link` method links a provider account to the signed-in user (`?intent=link`).
      const links = typeof options.callbackHandler?.prototype?.link === "function";
      const link = (session: Parameters<typeof toCallbackResult>[0], current: unknown) =>
        (handler as HandlerRunner)((h) =>
          h.link?.(toCallbackResult(session), session.provider, current),
        );
      const session: OAuthRoutesSession | undefined =
        options.session === undefined || options.session === false
          ? undefined
          : {
              ...(options.session === true ? {} : options.session),
              ...(handler === undefined ? {} : { from: run }),
              ...(handler === undefined || !links ? {} : { link }),
            };
      const sessions = session === undefined ? undefined : yield* sessionService(injector);
      const compiled = routes({
        ...options.routes,
        ...(handler === undefined || session !== undefined ? {} : { onSuccess: run }),
        ...(session === undefined ? {} : { session }),
      });
      const list = yield* Effect.provide(
        sessions === undefined
          ? compiled
          : Effect.provideService(compiled, Session, sessions.session),
        runtime.context,
      ).pipe(
        Effect.mapError(
          (error) => new StartupError({ message: `OAuthModule: ${error.message}`, cause: error }),
        ),
      );
      return list.map(
        (route, index): ContributedRoute => ({
          route: route as ContributedRoute["route"],
          handlers: [
            {
              method: route.method,
              path: route.path,
              controller: "OAuthModule",
              handler: routeNames[index] ?? "route",
            },
          ],
        }),
      );
    });

/**
 * OAuth 2.0 social login for the classic face.
 *
 * @example
 * declare class IssueAppToken implements OAuthCallbackHandler { // see OAuthCallbackHandler
 *   handle(result: OAuthCallbackResult, provider: ProviderName): Promise<unknown>;
 * }
 *
 * @Module({
 *   imports: [
 *     OAuthModule.forRoot({
 *       providers: {
 *         github: {
 *           clientId: process.env.GITHUB_CLIENT_ID ?? "",
 *           clientSecret: process.env.GITHUB_CLIENT_SECRET ?? "",
 *           redirectUri: "https://app.example/auth/github/callback",
 *         },
 *       },
 *       callbackHandler: IssueAppToken,
 *     }),
 *   ],
 *   providers: [IssueAppToken],
 * })
 * class AppModule {}
 *
 * @since 0.1.0
 * @category classic
 */
@Module({})
export class OAuthModule {
  /**
   * The module configured with `options`: it exports {@link OAuthService} and serves
   * `GET /auth/:provider` and `GET /auth/:provider/callback` (unless `routes: false`).
   */
  static forRoot(options: OAuthModuleOptions): DynamicModule {
    return {
      module: OAuthModule,
      global: options.global === true,
      providers: [
        { token: OAuthProviderSource, useValue: liveProviderSource },
        {
          token: OAuthRuntime,
          useFactory: (source: OAuthProviderSource) => OAuthRuntime.make(options, source),
          inject: [OAuthProviderSource],
        },
        {
          token: OAuthService,
          useFactory: (runtime: OAuthRuntime) => new OAuthService(runtime),
          inject: [OAuthRuntime],
        },
        {
          token: ROUTE_CONTRIBUTOR,
          useFactory: (runtime: OAuthRuntime) => contributor(runtime),
          inject: [OAuthRuntime],
        },
      ],
      exports: [OAuthService],
    };
  }
}
