/**
 * The development identity provider: a small OAuth 2.0 server inside the project that speaks
 * the dialects of google, microsoft, github, facebook and twitter (their authorization,
 * token and profile endpoints and answer shapes), with a sign-in page listing test users.
 * It binds to loopback only and refuses to start when `NODE_ENV=production`.
 *
 * Point a provider at it with the provider's endpoint overrides: `endpoints(provider)` gives
 * the URLs in that shape.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Config from "effect/Config";
import * as Context from "effect/Context";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import type * as Scope from "effect/Scope";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";
import { NodeServer } from "../server/internal/FastPath.js";
import { avatar } from "./Avatar.js";
import type { DevClients } from "./DevClient.js";
import { type DevEndpoints, endpointsFor } from "./DevEndpoints.js";
import { DevIdentityProviderError } from "./DevIdentityProviderError.js";
import { type DevUser, defaultUsers } from "./DevUser.js";
import type { DialectContext } from "./DialectContext.js";
import { facebook } from "./dialects/facebook.js";
import { github } from "./dialects/github.js";
import { google } from "./dialects/google.js";
import { microsoft } from "./dialects/microsoft.js";
import { twitter } from "./dialects/twitter.js";
import { makeGrants } from "./Grants.js";
import { makeIdTokenSigner } from "./IdTokenSigner.js";
import { isLoopbackHost, urlHost } from "./Loopback.js";

/**
 * How the development identity provider runs.
 *
 * @since 0.1.0
 * @category options
 */
export interface DevIdentityProviderOptions {
  /** The registered clients, one per provider dialect (unregistered ones refuse every request). */
  readonly clients: DevClients;
  /** The users listed on the sign-in page (default {@link defaultUsers}). */
  readonly users?: ReadonlyArray<DevUser>;
  /** The port (default 0: any free port). */
  readonly port?: number;
  /** A loopback host (default `127.0.0.1`); anything else is refused. */
  readonly host?: string;
  /** How long an authorization code lives (default 60 seconds). */
  readonly codeLifetime?: Duration.DurationInput;
}

/**
 * A running development identity provider.
 *
 * @since 0.1.0
 * @category service
 */
export interface DevIdentityProviderService {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly users: ReadonlyArray<DevUser>;
  /** The endpoints of a provider's dialect (microsoft: under `tenant`, default `common`). */
  readonly endpoints: (provider: SupportedProvider, tenant?: string) => DevEndpoints;
}

/**
 * The development identity provider as a service.
 *
 * @since 0.1.0
 * @category service
 */
export class DevIdentityProvider extends Context.Tag("effect-strata/devidp/DevIdentityProvider")<
  DevIdentityProvider,
  DevIdentityProviderService
>() {}

/** How long open requests get when it stops (a browser may hold a connection open). */
const SHUTDOWN_MILLIS = 1000;

/** Request bodies are small forms: anything over 64 KiB is refused. */
const MAX_BODY_BYTES = 64 * 1024;

/** Fails unless the process may run a development tool (`NODE_ENV` is not `production`). */
const refuseProduction = Effect.gen(function* () {
  const env = yield* Effect.orElseSucceed(Config.option(Config.string("NODE_ENV")), () =>
    Option.none<string>(),
  );
  if (
    Option.getOrElse(env, () => "")
      .trim()
      .toLowerCase() === "production"
  ) {
    return yield* new DevIdentityProviderError({
      reason: "production",
      message:
        "The development identity provider refuses to start with NODE_ENV=production: it signs anyone in. Configure the real providers (<PROVIDER>_CLIENT_ID and _CLIENT_SECRET) instead.",
    });
  }
});

const nonLoopback = (host: string) =>
  new DevIdentityProviderError({
    reason: "non_loopback",
    message: `The development identity provider binds to loopback addresses only (127.0.0.1, ::1, localhost), not ${host}.`,
  });

/** The picture of each test user, at `/avatars/<key>.svg`. */
const avatarRoute = (users: ReadonlyArray<DevUser>) =>
  HttpLayerRouter.route(
    "GET",
    "/avatars/:file",
    Effect.map(HttpLayerRouter.params, (params) => {
      const user = users.find((candidate) => `${candidate.key}.svg` === params.file);
      return user === undefined ? HttpServerResponse.empty({ status: 404 }) : avatar(user);
    }),
  );

/**
 * Starts the development identity provider in the current scope (it stops when the scope
 * closes). Fails with {@link DevIdentityProviderError} when `NODE_ENV=production`, when the
 * host is not loopback, or when the port cannot be bound.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: DevIdentityProviderOptions,
): Effect.Effect<DevIdentityProviderService, DevIdentityProviderError, Scope.Scope> =>
  Effect.gen(function* () {
    yield* refuseProduction;
    const host = options.host ?? "127.0.0.1";
    if (!isLoopbackHost(host)) return yield* nonLoopback(host);
    const users = options.users ?? defaultUsers;
    const signer = yield* makeIdTokenSigner;
    const grants = yield* makeGrants(
      options.codeLifetime === undefined ? {} : { code: options.codeLifetime },
    );
    // Strata's node server: `@effect/platform-node`'s would load undici 7, which replaces
    // node's global fetch dispatcher (and refuses arctic's token requests).
    const server = yield* NodeServer.make({
      host,
      port: options.port ?? 0,
      shutdownTimeout: SHUTDOWN_MILLIS,
    }).pipe(
      Effect.mapError(
        (cause) =>
          new DevIdentityProviderError({
            reason: "listen",
            message: `The development identity provider could not listen on ${host}:${options.port ?? 0}`,
            cause,
          }),
      ),
    );
    const address = server.address;
    if (address._tag !== "TcpAddress" || !isLoopbackHost(address.hostname)) {
      return yield* nonLoopback(address._tag === "TcpAddress" ? address.hostname : address.path);
    }
    const base = `http://${urlHost(address.hostname)}:${address.port}`;
    const context: DialectContext = { base, clients: options.clients, users, grants, signer };
    const routes = [google, microsoft, github, facebook, twitter].flatMap((dialect) =>
      dialect(context),
    );
    // A memo map of its own: the default one is global, so a second instance in the same
    // process would otherwise get the first one's router.
    const memoMap = yield* Layer.makeMemoMap;
    const app = yield* HttpLayerRouter.toHttpEffect(
      HttpLayerRouter.addAll([...routes, avatarRoute(users)]),
    ).pipe(Effect.provideService(Layer.CurrentMemoMap, memoMap));
    yield* server.serve(
      HttpServerRequest.withMaxBodySize(app, Option.some(MAX_BODY_BYTES)).pipe(
        Effect.catchTag("RouteNotFound", () =>
          Effect.succeed(HttpServerResponse.text("Not Found", { status: 404 })),
        ),
      ),
    );
    return {
      url: base,
      users,
      endpoints: (provider, tenant) => endpointsFor(base, provider, tenant),
    } satisfies DevIdentityProviderService;
  }).pipe(Effect.withSpan("DevIdentityProvider.make"));

/**
 * The development identity provider as a Layer: started when the Layer is built, stopped
 * when it is released.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: DevIdentityProviderOptions,
): Layer.Layer<DevIdentityProvider, DevIdentityProviderError> =>
  Layer.scoped(DevIdentityProvider, make(options));
