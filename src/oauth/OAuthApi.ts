/**
 * The built-in OAuth routes described as an `HttpApi` (for their OpenAPI document, and for
 * typed clients): `GET <path>/{provider}` and `GET <path>/{provider}/callback`, with every
 * status and stable `error` code `OAuthRoutes` answers. Loaded only when a document is built.
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as OpenApi from "@effect/platform/OpenApi";
import * as Schema from "effect/Schema";
import {
  BadGatewayBody,
  CallbackResult,
  HandlerFailedBody,
  InvalidRedirectBody,
  intent,
  LinkBadRequestBody,
  LinkUnauthorizedBody,
  redirects,
  SessionTooLargeBody,
  StoreFullBody,
  sessionError,
  TimeoutBody,
  TooManyBody,
  UnauthorizedBody,
  UnknownProviderBody,
} from "./internal/apiBodies.js";
import { withHeaders, withoutDecodeErrors } from "./internal/apiDocumentPatches.js";
import { OAuthSessionUser } from "./OAuthSessionUser.js";
import type { ProviderName } from "./SupportedProvider.js";

/** What the description depends on: where the routes are, the providers, the handler. */
export interface OAuthApiOptions {
  /** Where the routes live (default `/auth`). */
  readonly path?: `/${string}`;
  /** The configured providers (the `{provider}` values that are not a 404). */
  readonly providers: ReadonlyArray<ProviderName>;
  /** `true` when a success handler answers the callback (its value, not the callback result). */
  readonly handler?: boolean;
  /**
   * With the routes' `session` option: the callback signs in and redirects, and
   * `GET <path>/session` and `POST <path>/logout` are served. `profile`: the session data is
   * the default `OAuthSessionUser`; `logoutRedirect`: a logout answers 303 there, not 204;
   * `link`: `?intent=link` links the provider account to the signed-in user.
   */
  readonly session?: {
    readonly profile: boolean;
    readonly logoutRedirect: boolean;
    readonly link?: boolean;
  };
}

/**
 * The `HttpApi` of the built-in routes for `options`: the authorization start (302 to the
 * provider, the transaction cookie set) and the callback (the callback result as JSON, the
 * handler's value, or a 302 to the validated redirect), each with its error statuses and codes.
 *
 * @since 0.1.0
 * @category routes
 */
export const make = (options: OAuthApiOptions) => {
  const base = options.path ?? "/auth";
  const provider = Schema.Struct({
    provider: (options.providers.length === 0
      ? Schema.String
      : Schema.Literal(...(options.providers as [string, ...Array<string>]))
    ).annotations({ description: "A configured provider" }),
  });
  const link = options.session?.link === true;
  const group = HttpApiGroup.make("oauth")
    .add(authorizeEndpoint(base, provider, link))
    .add(callbackEndpoint(base, provider, link, options));
  const routes = (options.session === undefined
    ? group
    : group
        .add(session(base, options.session.profile))
        .add(
          logout(base, options.session.logoutRedirect),
        )) as unknown as HttpApiGroup.HttpApiGroup.AnyWithProps;
  return HttpApi.make("oauth")
    .add(
      routes.annotateContext(
        OpenApi.annotations({ title: "OAuth", description: "Social login (effect-strata/oauth)" }),
      ),
    )
    .annotateContext(OpenApi.annotations({ transform: withoutDecodeErrors }));
};

/** The `{provider}` path parameter. */
type ProviderPath = Schema.Struct<{ provider: Schema.Schema<string> }>;

/** `GET <base>/{provider}`: a 302 to the provider, the transaction cookie set. */
const authorizeEndpoint = (base: `/${string}`, provider: ProviderPath, link: boolean) => {
  const badRequest = link ? LinkBadRequestBody : InvalidRedirectBody;
  const authorizeBase = HttpApiEndpoint.get("authorize", `${base}/:provider`)
    .setPath(provider)
    .setUrlParams(link ? Schema.Struct({ ...redirects, intent }) : Schema.Struct(redirects))
    .addSuccess(HttpApiSchema.Empty(302).annotations({ description: "To the provider" }))
    .addError(badRequest, { status: 400 });
  return (
    link
      ? authorizeBase
          .addError(LinkUnauthorizedBody, { status: 401 })
          .addError(sessionError(403, "A link started cross-site (Origin, Sec-Fetch-Site)"), {
            status: 403,
          })
      : authorizeBase
  )
    .addError(UnknownProviderBody, { status: 404 })
    .addError(StoreFullBody, { status: 503 })
    .addError(TooManyBody, { status: 429 })
    .annotateContext(
      OpenApi.annotations({
        summary: "Start signing in with a provider",
        description:
          "Redirects to the provider's authorization page; the transaction (state, PKCE verifier, nonce) is in a sealed, HttpOnly, SameSite=Lax cookie for 10 minutes.",
        transform: withHeaders("The sealed transaction cookie"),
      }),
    );
};

/** `GET <base>/{provider}/callback`: the callback result, the handler's value, or a 302. */
const callbackEndpoint = (
  base: `/${string}`,
  provider: ProviderPath,
  link: boolean,
  options: OAuthApiOptions,
) => {
  const callbackUrlParams = Schema.Struct({
    state: Schema.optional(Schema.String),
    code: Schema.optional(Schema.String),
    iss: Schema.optional(Schema.String),
    error: Schema.optional(Schema.String.annotations({ description: "The provider's error" })),
    ...redirects,
  });
  const callbackBase = HttpApiEndpoint.get("callback", `${base}/:provider/callback`)
    .setPath(provider)
    .setUrlParams(callbackUrlParams);
  const callbackSuccess =
    options.handler === true
      ? callbackBase
          .addSuccess(Schema.Unknown.annotations({ description: "The success handler's value" }))
          .addSuccess(HttpApiSchema.Empty(204))
      : options.session !== undefined
        ? callbackBase
        : callbackBase.addSuccess(CallbackResult);
  const callbackErrors =
    options.session === undefined
      ? callbackSuccess
      : callbackSuccess.addError(SessionTooLargeBody, { status: 422 });
  return callbackErrors
    .addSuccess(
      HttpApiSchema.Empty(302).annotations({
        description:
          options.session === undefined
            ? "To the validated redirect"
            : "Signed in (a new session cookie): to successRedirect, else /",
      }),
    )
    .addError(link ? LinkBadRequestBody : InvalidRedirectBody, { status: 400 })
    .addError(link ? LinkUnauthorizedBody : UnauthorizedBody, { status: 401 })
    .addError(UnknownProviderBody, { status: 404 })
    .addError(HandlerFailedBody, { status: 500 })
    .addError(BadGatewayBody, { status: 502 })
    .addError(StoreFullBody, { status: 503 })
    .addError(TooManyBody, { status: 429 })
    .addError(TimeoutBody, { status: 504 })
    .annotateContext(
      OpenApi.annotations({
        summary: "Complete signing in",
        description:
          "Checks the state against the transaction cookie (single use, 10 minutes), exchanges the code, fetches the profile. Every outcome clears the transaction cookie.",
        transform: withHeaders("Clears the transaction cookie"),
      }),
    );
};

/** `GET <base>/session`: the signed-in user. */
const session = (base: `/${string}`, profile: boolean) =>
  HttpApiEndpoint.get("session", `${base}/session`)
    .addSuccess(
      profile
        ? OAuthSessionUser
        : Schema.Unknown.annotations({ description: "The app's session data" }),
    )
    .addError(sessionError(401, "No valid session (a bad cookie is cleared)"), { status: 401 })
    .addError(sessionError(503, "The session store cannot be reached"), { status: 503 })
    .annotateContext(
      OpenApi.annotations({
        summary: "The signed-in user",
        transform: withHeaders("Clears a session cookie that is not valid"),
      }),
    );

/** `POST <base>/logout`: ends the session; same-site only. */
const logout = (base: `/${string}`, redirect: boolean) =>
  HttpApiEndpoint.post("logout", `${base}/logout`)
    .addSuccess(
      redirect
        ? HttpApiSchema.Empty(303).annotations({ description: "Signed out: to logoutRedirect" })
        : HttpApiSchema.Empty(204).annotations({ description: "Signed out" }),
    )
    .addError(sessionError(403, "A cross-site request (Origin, Sec-Fetch-Site)"), { status: 403 })
    .addError(sessionError(503, "The session store cannot be reached"), { status: 503 })
    .annotateContext(
      OpenApi.annotations({
        summary: "Sign out",
        description:
          "Ends the session (with a server-side store, a copied cookie stops working) and clears its cookie. Same-site only.",
        transform: withHeaders("Clears the session cookie"),
      }),
    );
