/**
 * The `github` dialect: authorization (scopes split on spaces or commas, `redirect_uri`
 * optional, PKCE checked when sent), a token endpoint that answers form-encoded unless JSON
 * is asked for and reports failures as 200 with `error=` (GitHub's style), `/user` and
 * `/user/emails` (the latter only with the `user:email` or `user` scope, else 404).
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import * as GitHubDialect from "../../oauth/dialects/github.js";
import { bearerToken, jsonAnswer } from "../ApiResponses.js";
import { authorizationRoutes } from "../AuthorizationEndpoint.js";
import { pictureUrl } from "../Avatar.js";
import { paths } from "../DevEndpoints.js";
import { subjectOf } from "../DevUser.js";
import type { Dialect } from "../DialectContext.js";
import type { TokenFailure } from "../TokenEndpoint.js";
import { checkTokenRequest, issueTokens } from "../TokenEndpoint.js";

const DOCS = "https://docs.github.com/rest";

/** GitHub's names for the refusals. */
const githubError = (failure: TokenFailure): string => {
  switch (failure.error) {
    case "invalid_client":
      return "incorrect_client_credentials";
    case "invalid_grant":
      return failure.description.startsWith("redirect_uri")
        ? "redirect_uri_mismatch"
        : "bad_verification_code";
    case "unsupported_grant_type":
      return "unsupported_grant_type";
    case "invalid_request":
      return "invalid_request";
  }
};

/** A token answer, form-encoded unless the request accepts JSON (always status 200). */
const tokenAnswer = (
  request: HttpServerRequest.HttpServerRequest,
  fields: Readonly<Record<string, string>>,
) =>
  (request.headers.accept ?? "").includes("application/json")
    ? jsonAnswer(fields)
    : HttpServerResponse.text(new URLSearchParams(fields).toString(), {
        contentType: "application/x-www-form-urlencoded; charset=utf-8",
        headers: { "cache-control": "no-store" },
      });

const unauthorized = jsonAnswer(
  { message: "Bad credentials", documentation_url: DOCS, status: "401" },
  401,
);

/**
 * The `github` routes.
 *
 * @since 0.1.0
 * @category dialects
 */
export const github: Dialect = (context) => {
  const token = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const checked = yield* checkTokenRequest(context, {
      provider: "github",
      clientAuth: ["client_secret_basic", "client_secret_post"],
      refresh: false,
      grantTypeOptional: true,
      redirectUriOptional: true,
    });
    if (Either.isLeft(checked)) {
      return tokenAnswer(request, {
        error: githubError(checked.left),
        error_description: checked.left.description,
        error_uri:
          "https://docs.github.com/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors",
      });
    }
    const issued = yield* issueTokens(context, checked.right, {});
    return tokenAnswer(request, {
      access_token: issued.accessToken,
      token_type: "bearer",
      scope: checked.right.grant.scopes.join(","),
    });
  });

  const authenticated = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    return yield* context.grants.accessGrant(
      bearerToken(request, ["bearer", "token"]) ?? "",
      "github",
    );
  });

  const user = Effect.map(authenticated, (grant) => {
    if (Option.isNone(grant)) return unauthorized;
    const { user: dev, scopes } = grant.value;
    const id = Number(subjectOf("github", dev));
    return jsonAnswer(
      {
        login: dev.key,
        id,
        node_id: `U_dev${id}`,
        avatar_url: pictureUrl(context.base, dev),
        html_url: `${context.base}/github/${dev.key}`,
        type: "User",
        site_admin: false,
        name: dev.name,
        company: null,
        blog: "",
        location: null,
        email: null,
        bio: null,
        public_repos: 0,
        followers: 0,
        following: 0,
        created_at: "2008-01-14T04:33:35Z",
      },
      200,
      {
        "x-oauth-scopes": scopes.join(", "),
        "x-github-api-version-selected": GitHubDialect.API_VERSION,
      },
    );
  });

  const emails = Effect.map(authenticated, (grant) => {
    if (Option.isNone(grant)) return unauthorized;
    const { user: dev, scopes } = grant.value;
    if (!scopes.includes(GitHubDialect.EMAIL_SCOPE) && !scopes.includes("user")) {
      return jsonAnswer({ message: "Not Found", documentation_url: DOCS, status: "404" }, 404);
    }
    return jsonAnswer([
      { email: dev.email, primary: true, verified: dev.emailVerified, visibility: "private" },
      {
        email: `${subjectOf("github", dev)}+${dev.key}@users.noreply.github.com`,
        primary: false,
        verified: true,
        visibility: null,
      },
    ]);
  });

  return [
    ...authorizationRoutes(context, {
      provider: "github",
      path: paths.github.authorization,
      pkce: "optional",
      redirectUriRequired: false,
      scopeSeparator: /[\s,]+/,
      offline: () => false,
    }),
    HttpLayerRouter.route("POST", paths.github.token, token),
    HttpLayerRouter.route("GET", paths.github.user, user),
    HttpLayerRouter.route("GET", paths.github.emails, emails),
  ];
};
