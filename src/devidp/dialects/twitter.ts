/**
 * The `twitter` dialect (OAuth 2.0 with PKCE): authorization requiring an S256 challenge,
 * `offline.access` for refresh tokens, a token endpoint where confidential clients use HTTP
 * Basic only (public clients their `client_id`), rotating refresh tokens, revocation, and
 * `/2/users/me` (`data`, `profile_image_url` on request, no email; `users.read` required).
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import * as TwitterDialect from "../../oauth/dialects/twitter.js";
import { bearerToken, jsonAnswer } from "../ApiResponses.js";
import { authorizationRoutes } from "../AuthorizationEndpoint.js";
import { pictureUrl } from "../Avatar.js";
import { authenticateClient } from "../DevClient.js";
import { paths } from "../DevEndpoints.js";
import { subjectOf } from "../DevUser.js";
import type { Dialect } from "../DialectContext.js";
import { queryParams, readParams } from "../RequestParams.js";
import { checkTokenRequest, issueTokens, type TokenFailure } from "../TokenEndpoint.js";

const ACCESS_TOKEN_SECONDS = 7200;

const tokenError = (failure: TokenFailure) =>
  failure.error === "invalid_client"
    ? jsonAnswer({ error: "unauthorized_client", error_description: failure.description }, 401)
    : jsonAnswer({ error: failure.error, error_description: failure.description }, 400);

const problem = (status: 401 | 403, title: string, detail: string) =>
  jsonAnswer(
    {
      title,
      type: status === 401 ? "about:blank" : "https://api.twitter.com/2/problems/client-forbidden",
      status,
      detail,
    },
    status,
    { "content-type": "application/problem+json" },
  );

/**
 * The `twitter` routes.
 *
 * @since 0.1.0
 * @category dialects
 */
export const twitter: Dialect = (context) => {
  const token = Effect.gen(function* () {
    const checked = yield* checkTokenRequest(context, {
      provider: "twitter",
      clientAuth: ["client_secret_basic"],
      refresh: true,
    });
    if (Either.isLeft(checked)) return tokenError(checked.left);
    const issued = yield* issueTokens(context, checked.right, {
      lifetimeSeconds: ACCESS_TOKEN_SECONDS,
      rotate: true,
    });
    return jsonAnswer({
      token_type: "bearer",
      expires_in: ACCESS_TOKEN_SECONDS,
      access_token: issued.accessToken,
      scope: checked.right.grant.scopes.join(" "),
      ...(issued.refreshToken === undefined ? {} : { refresh_token: issued.refreshToken }),
    });
  });

  const revoke = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const form = readParams(yield* Effect.orElseSucceed(request.urlParamsBody, () => []));
    const client = authenticateClient(
      context.clients,
      "twitter",
      ["client_secret_basic"],
      request.headers.authorization,
      form,
    );
    if (Either.isLeft(client)) return tokenError({ error: "invalid_client", ...client.left });
    yield* context.grants.revoke(form.get("token") ?? "");
    return jsonAnswer({ revoked: true });
  });

  const me = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const grant = yield* context.grants.accessGrant(bearerToken(request) ?? "", "twitter");
    if (Option.isNone(grant)) return problem(401, "Unauthorized", "Unauthorized");
    const { user, scopes } = grant.value;
    if (!scopes.includes("users.read") || !scopes.includes("tweet.read")) {
      return problem(
        403,
        "Forbidden",
        "The access token lacks the users.read and tweet.read scopes this endpoint needs.",
      );
    }
    const fields = (queryParams(request.url).get("user.fields") ?? "").split(",");
    return jsonAnswer({
      data: {
        id: subjectOf("twitter", user),
        name: user.name,
        username: user.key,
        ...(fields.includes(TwitterDialect.PICTURE_FIELD)
          ? { profile_image_url: pictureUrl(context.base, user) }
          : {}),
      },
    });
  });

  return [
    ...authorizationRoutes(context, {
      provider: "twitter",
      path: paths.twitter.authorization,
      pkce: "required",
      redirectUriRequired: true,
      scopeSeparator: /\s+/,
      offline: (_, scopes) => scopes.includes(TwitterDialect.OFFLINE_SCOPE),
    }),
    HttpLayerRouter.route("POST", paths.twitter.token, token),
    HttpLayerRouter.route("POST", paths.twitter.revocation, revoke),
    HttpLayerRouter.route("GET", paths.twitter.me, me),
  ];
};
