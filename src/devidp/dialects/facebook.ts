/**
 * The `facebook` dialect (Graph API v16.0): authorization (no PKCE required, checked when
 * sent), a token endpoint taking the client credentials as form fields or query parameters
 * (never Basic), Graph's error shape (`{ error: { message, type, code, fbtrace_id } }`), and
 * `/me` answering the requested `fields` (`picture.data.url`; `email` only with the `email`
 * permission and a confirmed address), checking `appsecret_proof` when sent.
 *
 * @since 0.1.0
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as FacebookDialect from "../../oauth/dialects/facebook.js";
import { bearerToken, jsonAnswer } from "../ApiResponses.js";
import { authorizationRoutes } from "../AuthorizationEndpoint.js";
import { pictureUrl } from "../Avatar.js";
import { paths } from "../DevEndpoints.js";
import { nameParts, subjectOf } from "../DevUser.js";
import type { Dialect } from "../DialectContext.js";
import { queryParams } from "../RequestParams.js";
import { checkTokenRequest, issueTokens, type TokenFailure } from "../TokenEndpoint.js";

/** Facebook's long-lived user token lifetime (about 60 days). */
const ACCESS_TOKEN_SECONDS = 5_183_944;

/** A Graph API error answer. */
const graphError = (
  status: number,
  message: string,
  code: number,
  type = "OAuthException",
  subcode?: number,
) =>
  jsonAnswer(
    {
      error: {
        message,
        type,
        code,
        ...(subcode === undefined ? {} : { error_subcode: subcode }),
        fbtrace_id: "AdevIdPtraceId0000000000",
      },
    },
    status,
    {
      "www-authenticate": `OAuth "Facebook Platform" "${code === 190 ? "invalid_token" : "invalid_request"}" "${message}"`,
    },
  );

const tokenError = (failure: TokenFailure) => {
  switch (failure.error) {
    case "invalid_client":
      return graphError(400, `Error validating client secret. ${failure.description}`, 1);
    case "invalid_grant":
      return graphError(400, failure.description, 100, "OAuthException", 36009);
    default:
      return graphError(400, failure.description, 100);
  }
};

const proofMatches = (secret: string, accessToken: string, proof: string): boolean => {
  const expected = Buffer.from(createHmac("sha256", secret).update(accessToken).digest("hex"));
  const actual = Buffer.from(proof);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
};

/**
 * The `facebook` routes.
 *
 * @since 0.1.0
 * @category dialects
 */
export const facebook: Dialect = (context) => {
  const token = Effect.gen(function* () {
    const checked = yield* checkTokenRequest(context, {
      provider: "facebook",
      clientAuth: ["client_secret_post"],
      refresh: false,
      allowGet: true,
      grantTypeOptional: true,
    });
    if (Either.isLeft(checked)) return tokenError(checked.left);
    const issued = yield* issueTokens(context, checked.right, {
      lifetimeSeconds: ACCESS_TOKEN_SECONDS,
    });
    return jsonAnswer({
      access_token: issued.accessToken,
      token_type: "bearer",
      expires_in: ACCESS_TOKEN_SECONDS,
    });
  });

  const me = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const query = queryParams(request.url);
    const presented = bearerToken(request) ?? query.get("access_token") ?? "";
    const grant = yield* context.grants.accessGrant(presented, "facebook");
    if (Option.isNone(grant)) {
      return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
    }
    const proof = query.get(FacebookDialect.APPSECRET_PROOF);
    const secret = context.clients.facebook?.clientSecret;
    if (proof !== undefined && secret != null) {
      const plain = typeof secret === "string" ? secret : Redacted.value(secret);
      if (!proofMatches(plain, presented, proof)) {
        return graphError(
          400,
          "Invalid appsecret_proof provided in the API argument",
          100,
          "GraphMethodException",
        );
      }
    }
    const { user, scopes } = grant.value;
    const fields = new Set((query.get("fields") ?? "id,name").split(",").map((f) => f.trim()));
    const names = nameParts(user);
    const url = pictureUrl(context.base, user);
    const available: Record<string, unknown> = {
      id: subjectOf("facebook", user),
      name: user.name,
      first_name: names.given,
      last_name: names.family,
      ...(scopes.includes("email") && user.emailVerified ? { email: user.email } : {}),
      picture: { data: { height: 50, is_silhouette: false, url, width: 50 } },
    };
    return jsonAnswer(
      Object.fromEntries(Object.entries(available).filter(([field]) => fields.has(field))),
    );
  });

  return [
    ...authorizationRoutes(context, {
      provider: "facebook",
      path: paths.facebook.authorization,
      pkce: "optional",
      redirectUriRequired: true,
      scopeSeparator: /[\s,]+/,
      offline: () => false,
      deniedExtras: {
        error_code: "200",
        error_description: "Permissions error",
        error_reason: "user_denied",
      },
    }),
    HttpLayerRouter.route("POST", paths.facebook.token, token),
    HttpLayerRouter.route("GET", paths.facebook.token, token),
    HttpLayerRouter.route("GET", paths.facebook.me, me),
  ];
};
