/**
 * The bodies and parameters the built-in routes' `HttpApi` describes: each error status with
 * its stable codes, the callback result, the redirect and intent parameters.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema";
import { HANDLER_FAILED } from "../RedirectPolicy.js";

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

export const InvalidRedirectBody = errorBody(
  400,
  ["invalid_redirect"],
  "successRedirect or errorRedirect is neither a relative path nor a configured origin",
);
export const UnauthorizedBody = errorBody(
  401,
  ["invalid_state", "provider_error", "code_rejected"],
  "Missing, invalid, expired or replayed state; the provider's error=; the code refused",
);
/** The 400 and 401 bodies where linking is enabled (`?intent=link`). */
export const LinkBadRequestBody = errorBody(
  400,
  ["invalid_redirect", "invalid_intent"],
  "successRedirect or errorRedirect is neither a relative path nor a configured origin; an intent other than link",
);
export const LinkUnauthorizedBody = errorBody(
  401,
  ["invalid_state", "provider_error", "code_rejected", "session_required"],
  "Missing, invalid, expired or replayed state; the provider's error=; the code refused; a link without a session",
);
export const UnknownProviderBody = errorBody(404, ["unknown_provider"], "No such provider");
export const BadGatewayBody = errorBody(
  502,
  ["provider_unreachable", "token_response_malformed", "profile_fetch_failed"],
  "The provider is unreachable, failed, or answered something malformed",
);
export const StoreFullBody = errorBody(
  503,
  ["transaction_store_full"],
  "The in-process transaction store is full of live transactions",
);
export const TooManyBody = errorBody(
  429,
  ["too_many_transactions"],
  "This client holds as many transactions as the store allows one client; Retry-After says when one expires",
);
export const SessionTooLargeBody = errorBody(
  422,
  ["session_too_large"],
  "The session data does not fit the sealed session cookie (a very long profile name); nothing was written",
);
export const TimeoutBody = errorBody(504, ["provider_timeout"], "The provider answered too slowly");
export const HandlerFailedBody = Schema.Struct({
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

export const CallbackResult = Schema.Struct({
  accessToken: Schema.String,
  refreshToken: Schema.optional(Schema.String),
  expiresAt: Schema.optional(Schema.String.annotations({ format: "date-time" })),
  user: OAuthUser,
}).annotations({ identifier: "OAuthCallbackResult" });

export const redirects = {
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
export const intent = Schema.optional(
  Schema.Literal("link").annotations({
    description: "Link the provider account to the signed-in user instead of signing in",
  }),
);

export const sessionError = (status: number, description: string) =>
  Schema.Struct({ statusCode: Schema.Literal(status), message: Schema.String }).annotations({
    description,
  });
