/**
 * The `microsoft` dialect (Entra ID v2.0 endpoints under a tenant path): authorization with
 * PKCE S256 and the `offline_access` scope, an OpenID Connect token response (RS256
 * `id_token` with `tid`, `oid`, the request's `nonce`, and with the `email` the optional claim
 * `xms_edov`, true for users with a verified address; rotating refresh tokens), Graph's
 * `/oidc/userinfo`, discovery and JWKS. Confidential clients authenticate with Basic or form
 * fields; public clients send their `client_id` only.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import * as MicrosoftDialect from "../../oauth/dialects/microsoft.js";
import { bearerToken, jsonAnswer } from "../ApiResponses.js";
import { authorizationRoutes } from "../AuthorizationEndpoint.js";
import { pictureUrl } from "../Avatar.js";
import { DEV_TENANT_ID, microsoftIssuer, paths } from "../DevEndpoints.js";
import { type DevUser, nameParts, subjectOf } from "../DevUser.js";
import type { Dialect } from "../DialectContext.js";
import { atHash } from "../IdTokenSigner.js";
import { checkTokenRequest, issueTokens, type TokenFailure } from "../TokenEndpoint.js";

const ACCESS_TOKEN_SECONDS = 3599;

/** Entra's `AADSTS` codes for each refusal. */
const aadsts: { readonly [E in TokenFailure["error"]]: number } = {
  invalid_request: 900144,
  invalid_client: 7000215,
  invalid_grant: 70008,
  unsupported_grant_type: 70003,
};

/** A stable object id (`oid`) for a user, in GUID form. */
const objectId = (user: DevUser): string => {
  const hex = createHash("sha256").update(`strata-devidp:oid:${user.key}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The `microsoft` routes.
 *
 * @since 0.1.0
 * @category dialects
 */
export const microsoft: Dialect = (context) => {
  const issuer = microsoftIssuer(context.base);

  const tokenError = (failure: TokenFailure) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const code = aadsts[failure.error];
      return jsonAnswer(
        {
          error: failure.error,
          error_description: `AADSTS${code}: ${failure.description}`,
          error_codes: [code],
          timestamp: new Date(now).toISOString().replace("T", " ").slice(0, 19),
          trace_id: "00000000-0000-0000-0000-000000000000",
          correlation_id: "00000000-0000-0000-0000-000000000000",
        },
        failure.error === "invalid_client" ? 401 : 400,
      );
    });

  const token = Effect.gen(function* () {
    const checked = yield* checkTokenRequest(context, {
      provider: "microsoft",
      clientAuth: ["client_secret_basic", "client_secret_post"],
      refresh: true,
    });
    if (Either.isLeft(checked)) return yield* tokenError(checked.left);
    const granted = checked.right;
    const { grant } = granted;
    const issued = yield* issueTokens(context, granted, {
      lifetimeSeconds: ACCESS_TOKEN_SECONDS,
      rotate: true,
    });
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000);
    const { user } = grant;
    const nonce = granted.authorization?.nonce;
    const idToken = grant.scopes.includes("openid")
      ? context.signer.sign({
          ver: "2.0",
          iss: issuer,
          sub: subjectOf("microsoft", user),
          aud: grant.clientId,
          exp: now + 3600,
          iat: now,
          nbf: now,
          ...(grant.scopes.includes("profile")
            ? { name: user.name, preferred_username: user.email }
            : {}),
          ...(grant.scopes.includes("email")
            ? { email: user.email, [MicrosoftDialect.EMAIL_VERIFIED_CLAIM]: user.emailVerified }
            : {}),
          oid: objectId(user),
          tid: DEV_TENANT_ID,
          at_hash: atHash(issued.accessToken),
          ...(nonce === undefined ? {} : { nonce }),
        })
      : undefined;
    return jsonAnswer({
      token_type: "Bearer",
      scope: grant.scopes.filter((scope) => scope !== MicrosoftDialect.OFFLINE_SCOPE).join(" "),
      expires_in: ACCESS_TOKEN_SECONDS,
      ext_expires_in: ACCESS_TOKEN_SECONDS,
      access_token: issued.accessToken,
      ...(issued.refreshToken === undefined ? {} : { refresh_token: issued.refreshToken }),
      ...(idToken === undefined ? {} : { id_token: idToken }),
    });
  });

  const userinfo = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const grant = yield* context.grants.accessGrant(bearerToken(request) ?? "", "microsoft");
    if (Option.isNone(grant) || !grant.value.scopes.includes("openid")) {
      return jsonAnswer(
        {
          error: {
            code: "InvalidAuthenticationToken",
            message: "Access token validation failure. Invalid audience.",
          },
        },
        401,
        { "www-authenticate": 'Bearer error="invalid_token"' },
      );
    }
    const { user, scopes } = grant.value;
    const names = nameParts(user);
    return jsonAnswer({
      sub: subjectOf("microsoft", user),
      ...(scopes.includes("profile")
        ? {
            name: user.name,
            family_name: names.family,
            given_name: names.given,
            picture: pictureUrl(context.base, user),
          }
        : {}),
      ...(scopes.includes("email") ? { email: user.email } : {}),
    });
  });

  const discovery = Effect.map(HttpLayerRouter.params, (params) => {
    const tenantBase = `${context.base}/microsoft/${params.tenant ?? "common"}`;
    return jsonAnswer({
      issuer,
      authorization_endpoint: `${tenantBase}/oauth2/v2.0/authorize`,
      token_endpoint: `${tenantBase}/oauth2/v2.0/token`,
      userinfo_endpoint: context.base + paths.microsoft.userinfo,
      jwks_uri: `${tenantBase}/discovery/v2.0/keys`,
      response_types_supported: ["code"],
      subject_types_supported: ["pairwise"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "profile", "email", MicrosoftDialect.OFFLINE_SCOPE],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      code_challenge_methods_supported: ["S256"],
      tenant_region_scope: null,
    });
  });

  return [
    ...authorizationRoutes(context, {
      provider: "microsoft",
      path: paths.microsoft.authorization,
      pkce: "required",
      redirectUriRequired: true,
      scopeSeparator: /\s+/,
      offline: (_, scopes) => scopes.includes(MicrosoftDialect.OFFLINE_SCOPE),
      callbackExtras: () => ({ session_state: "00000000-0000-0000-0000-000000000000" }),
    }),
    HttpLayerRouter.route("POST", paths.microsoft.token, token),
    HttpLayerRouter.route("GET", paths.microsoft.userinfo, userinfo),
    HttpLayerRouter.route("GET", paths.microsoft.discovery, discovery),
    HttpLayerRouter.route(
      "GET",
      paths.microsoft.jwks,
      Effect.succeed(jsonAnswer(context.signer.jwks)),
    ),
  ];
};
