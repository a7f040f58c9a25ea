/**
 * The `google` dialect: authorization with PKCE S256 and `access_type=offline`, an OpenID
 * Connect token response (RS256 `id_token` with the request's `nonce`), userinfo, token
 * revocation, discovery and JWKS. Clients authenticate with Basic or form fields.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import * as GoogleDialect from "../../oauth/dialects/google.js";
import { bearerToken, jsonAnswer } from "../ApiResponses.js";
import { authorizationRoutes } from "../AuthorizationEndpoint.js";
import { pictureUrl } from "../Avatar.js";
import { endpointsFor, googleIssuer, paths } from "../DevEndpoints.js";
import { nameParts, subjectOf } from "../DevUser.js";
import type { Dialect } from "../DialectContext.js";
import { atHash } from "../IdTokenSigner.js";
import { readParams } from "../RequestParams.js";
import { checkTokenRequest, issueTokens, type TokenFailure } from "../TokenEndpoint.js";

const ACCESS_TOKEN_SECONDS = 3599;

const tokenError = (failure: TokenFailure) =>
  jsonAnswer(
    { error: failure.error, error_description: failure.description },
    failure.error === "invalid_client" ? 401 : 400,
  );

/**
 * The `google` routes.
 *
 * @since 0.1.0
 * @category dialects
 */
export const google: Dialect = (context) => {
  const issuer = googleIssuer(context.base);
  const endpoints = endpointsFor(context.base, "google");

  const token = Effect.gen(function* () {
    const checked = yield* checkTokenRequest(context, {
      provider: "google",
      clientAuth: ["client_secret_basic", "client_secret_post"],
      refresh: true,
    });
    if (Either.isLeft(checked)) return tokenError(checked.left);
    const granted = checked.right;
    const { grant } = granted;
    const issued = yield* issueTokens(context, granted, { lifetimeSeconds: ACCESS_TOKEN_SECONDS });
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000);
    const { user } = grant;
    const nonce = granted.authorization?.nonce;
    const idToken = grant.scopes.includes("openid")
      ? context.signer.sign({
          iss: issuer,
          azp: grant.clientId,
          aud: grant.clientId,
          sub: subjectOf("google", user),
          ...(grant.scopes.includes("email")
            ? { email: user.email, email_verified: user.emailVerified }
            : {}),
          at_hash: atHash(issued.accessToken),
          ...(nonce === undefined ? {} : { nonce }),
          ...(grant.scopes.includes("profile")
            ? { name: user.name, picture: pictureUrl(context.base, user) }
            : {}),
          iat: now,
          exp: now + 3600,
        })
      : undefined;
    return jsonAnswer({
      access_token: issued.accessToken,
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: grant.scopes.join(" "),
      token_type: "Bearer",
      ...(idToken === undefined ? {} : { id_token: idToken }),
      ...(issued.refreshToken === undefined || granted.refreshToken !== undefined
        ? {}
        : { refresh_token: issued.refreshToken }),
    });
  });

  const userinfo = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const grant = yield* context.grants.accessGrant(bearerToken(request) ?? "", "google");
    if (Option.isNone(grant)) {
      return jsonAnswer(
        { error: "invalid_request", error_description: "Invalid Credentials" },
        401,
        { "www-authenticate": `Bearer realm="${issuer}", error="invalid_token"` },
      );
    }
    const { user, scopes } = grant.value;
    const names = nameParts(user);
    return jsonAnswer({
      sub: subjectOf("google", user),
      ...(scopes.includes("profile")
        ? {
            name: user.name,
            given_name: names.given,
            family_name: names.family,
            picture: pictureUrl(context.base, user),
          }
        : {}),
      ...(scopes.includes("email")
        ? { email: user.email, email_verified: user.emailVerified }
        : {}),
    });
  });

  const revoke = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const form = readParams(yield* Effect.orElseSucceed(request.urlParamsBody, () => []));
    const presented = form.get("token") ?? "";
    const known =
      Option.isSome(yield* context.grants.accessGrant(presented, "google")) ||
      Option.isSome(yield* context.grants.refreshGrant(presented, "google"));
    if (!known)
      return jsonAnswer({ error: "invalid_token", error_description: "Bad Request" }, 400);
    yield* context.grants.revoke(presented);
    return jsonAnswer({});
  });

  const discovery = jsonAnswer({
    issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    userinfo_endpoint: `${endpoints.api}/v1/userinfo`,
    revocation_endpoint: endpoints.revocation,
    jwks_uri: context.base + paths.google.jwks,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    scopes_supported: ["openid", "email", "profile"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    code_challenge_methods_supported: ["S256"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    claims_supported: ["aud", "email", "email_verified", "exp", "iat", "iss", "name", "sub"],
  });

  return [
    ...authorizationRoutes(context, {
      provider: "google",
      path: paths.google.authorization,
      pkce: "required",
      redirectUriRequired: true,
      scopeSeparator: /\s+/,
      offline: (params) =>
        params.get(GoogleDialect.offlineParameter.name) === GoogleDialect.offlineParameter.value,
      callbackExtras: (grant) => ({
        scope: grant.scopes.join(" "),
        authuser: "0",
        prompt: "consent",
      }),
    }),
    HttpLayerRouter.route("POST", paths.google.token, token),
    HttpLayerRouter.route("GET", paths.google.userinfo, userinfo),
    HttpLayerRouter.route("POST", paths.google.revocation, revoke),
    HttpLayerRouter.route("GET", paths.google.discovery, Effect.succeed(discovery)),
    HttpLayerRouter.route(
      "GET",
      paths.google.jwks,
      Effect.succeed(jsonAnswer(context.signer.jwks)),
    ),
  ];
};
