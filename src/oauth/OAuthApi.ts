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
import { OAuthSessionUser } from "./OAuthSessionUser.js";
import { HANDLER_FAILED } from "./RedirectPolicy.js";
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

/** An OAuth error body: the standard shape plus a stable `error` code. */
const errorBody = <const Codes extends ReadonlyArray<string>>(
  status: number,
  codes: Codes,
  description: string,
) =>
  Schema.Struct({
    statusCode: Schema.Literal(status),
    message: Schema.String,
    error: Schema.Literal(...codes).annotations({ description: "A stable error code" }),
  }).annotations({ identifier: `OAuthError${status}`, description });

const InvalidRedirectBody = errorBody(
  400,
  ["invalid_redirect"],
  "successRedirect or errorRedirect is neither a relative path nor a configured origin",
);
const UnauthorizedBody = errorBody(
  401,
  ["invalid_state", "provider_error", "code_rejected"],
  "Missing, invalid, expired or replayed state; the provider's error=; the code refused",
);
/** The 400 and 401 bodies where linking is enabled (`?intent=link`). */
const LinkBadRequestBody = errorBody(
  400,
  ["invalid_redirect", "invalid_intent"],
  "successRedirect or errorRedirect is neither a relative path nor a configured origin; an intent other than link",
);
const LinkUnauthorizedBody = errorBody(
  401,
  ["invalid_state", "provider_error", "code_rejected", "session_required"],
  "Missing, invalid, expired or replayed state; the provider's error=; the code refused; a link without a session",
);
const UnknownProviderBody = errorBody(404, ["unknown_provider"], "No such provider");
const BadGatewayBody = errorBody(
  502,
  ["provider_unreachable", "token_response_malformed", "profile_fetch_failed"],
  "The provider is unreachable, failed, or answered something malformed",
);
const StoreFullBody = errorBody(
  503,
  ["transaction_store_full"],
  "The in-process transaction store is full of live transactions",
);
const TooManyBody = errorBody(
  429,
  ["too_many_transactions"],
  "This client holds as many transactions as the store allows one client; Retry-After says when one expires",
);
const SessionTooLargeBody = errorBody(
  422,
  ["session_too_large"],
  "The session data does not fit the sealed session cookie (a very long profile name); nothing was written",
);
const TimeoutBody = errorBody(504, ["provider_timeout"], "The provider answered too slowly");
const HandlerFailedBody = Schema.Struct({
  statusCode: Schema.Int,
  message: Schema.String,
  errors: Schema.optional(Schema.Array(Schema.String)),
}).annotations({
  identifier: "OAuthHandlerError",
  description: `The success handler failed (its HttpError's status, else 500; a failure naming its status and code, as an AccountConflict's 409 account_conflict, with that code in error); with errorRedirect, a 302 there with error=${HANDLER_FAILED} or that code`,
});

const OAuthUser = Schema.Struct({
  id: Schema.String.annotations({ description: "The provider's stable user id" }),
  email: Schema.optional(Schema.String),
  emailVerified: Schema.optional(
    Schema.Boolean.annotations({ description: "true only when the provider verified the email" }),
  ),
  name: Schema.optional(Schema.String),
  picture: Schema.optional(Schema.String.annotations({ description: "A URL of the picture" })),
}).annotations({ identifier: "OAuthUser" });

const CallbackResult = Schema.Struct({
  accessToken: Schema.String,
  refreshToken: Schema.optional(Schema.String),
  expiresAt: Schema.optional(Schema.String.annotations({ format: "date-time" })),
  user: OAuthUser,
}).annotations({ identifier: "OAuthCallbackResult" });

const redirects = {
  successRedirect: Schema.optional(
    Schema.String.annotations({
      description:
        "Where to send the browser after a success: a relative path or a configured origin",
    }),
  ),
  errorRedirect: Schema.optional(
    Schema.String.annotations({
      description: "Where to send the browser after a failure (with error=<code>)",
    }),
  ),
};

/** The intent of a start where linking is enabled. */
const intent = Schema.optional(
  Schema.Literal("link").annotations({
    description: "Link the provider account to the signed-in user instead of signing in",
  }),
);

const secured = { schema: { type: "string" } } as const;

/** Response headers OpenAPI cannot take from the Schemas: the redirect, the cookie, no caching. */
const withHeaders =
  (cookie: string) =>
  (operation: Record<string, unknown>): Record<string, unknown> => {
    const responses = operation.responses as Record<string, Record<string, unknown>>;
    const headers = {
      "Cache-Control": { ...secured, description: "no-store" },
      "Referrer-Policy": { ...secured, description: "no-referrer" },
    };
    const described = Object.fromEntries(
      Object.entries(responses).map(([status, response]) => [
        status,
        {
          ...response,
          headers: {
            ...headers,
            ...(status === "302" ? { Location: { ...secured, description: "Where to go" } } : {}),
            "Set-Cookie": { ...secured, description: cookie },
          },
        },
      ]),
    );
    return { ...operation, responses: described };
  };

/**
 * The document less `HttpApiDecodeError`, which every `HttpApi` declares but these routes never
 * answer (a bad redirect parameter is their 400).
 */
interface SpecShape {
  readonly paths: Record<
    string,
    Record<
      string,
      {
        readonly responses: Record<
          string,
          {
            readonly content?: Record<
              string,
              { schema?: { readonly anyOf?: ReadonlyArray<unknown>; readonly $ref?: string } }
            >;
          }
        >;
      }
    >
  >;
  readonly components: { readonly schemas: Record<string, unknown> };
}

const decodeError = "#/components/schemas/HttpApiDecodeError";

const isDecodeError = (schema: unknown): boolean =>
  (schema as { readonly $ref?: string } | undefined)?.$ref === decodeError;

const withoutDecodeErrors = <Spec extends object>(input: Spec): Spec => {
  const spec = input as unknown as SpecShape;
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      const content = operation.responses["400"]?.content?.["application/json"];
      if (content === undefined) continue;
      // The 400 of a route that has none of its own is the decode error alone.
      if (isDecodeError(content.schema)) {
        delete operation.responses["400"];
        continue;
      }
      const rest = (content.schema?.anyOf ?? []).filter((schema) => !isDecodeError(schema));
      if (content.schema?.anyOf !== undefined) {
        content.schema = (rest.length === 1 ? rest[0] : { anyOf: rest }) as typeof content.schema;
      }
    }
  }
  const {
    HttpApiDecodeError: _,
    Issue: __,
    PropertyKey: ___,
    ...schemas
  } = spec.components.schemas;
  return { ...spec, components: { ...spec.components, schemas } } as unknown as Spec;
};

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
  const badRequest = link ? LinkBadRequestBody : InvalidRedirectBody;
  const unauthorized = link ? LinkUnauthorizedBody : UnauthorizedBody;
  const authorizeBase = HttpApiEndpoint.get("authorize", `${base}/:provider`)
    .setPath(provider)
    .setUrlParams(link ? Schema.Struct({ ...redirects, intent }) : Schema.Struct(redirects))
    .addSuccess(HttpApiSchema.Empty(302).annotations({ description: "To the provider" }))
    .addError(badRequest, { status: 400 });
  const authorize = (
    link
      ? authorizeBase
          .addError(unauthorized, { status: 401 })
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
  const callback = callbackErrors
    .addSuccess(
      HttpApiSchema.Empty(302).annotations({
        description:
          options.session === undefined
            ? "To the validated redirect"
            : "Signed in (a new session cookie): to successRedirect, else /",
      }),
    )
    .addError(badRequest, { status: 400 })
    .addError(unauthorized, { status: 401 })
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
  const group = HttpApiGroup.make("oauth").add(authorize).add(callback);
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

const sessionError = (status: number, description: string) =>
  Schema.Struct({ statusCode: Schema.Literal(status), message: Schema.String }).annotations({
    description,
  });

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
