/**
 * The token endpoint's checks, shared by every dialect (each formats the answer its own way):
 * client authentication by the methods the provider accepts, then for `authorization_code`
 * (RFC 6749 4.1.3, RFC 7636 4.6): a code that exists, is unexpired and unused (the first
 * attempt consumes it), issued to this client, the same `redirect_uri` as the authorization
 * request, and the PKCE verifier of its challenge; for `refresh_token`, a refresh token of
 * this client.
 *
 * @since 0.1.0
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";
import { authenticateClient, type ClientAuthMethod, type DevClient } from "./DevClient.js";
import type { DialectContext } from "./DialectContext.js";
import type { CodeGrant, TokenGrant } from "./Grants.js";
import { verifyS256 } from "./Pkce.js";
import { queryParams, type RequestParams, readParams } from "./RequestParams.js";

/**
 * How a dialect's token endpoint authenticates clients and which grants it serves.
 *
 * @since 0.1.0
 * @category token
 */
export interface TokenDialect {
  readonly provider: SupportedProvider;
  readonly clientAuth: ReadonlyArray<ClientAuthMethod>;
  /** Serves `grant_type=refresh_token`. */
  readonly refresh: boolean;
  /** Also takes the parameters in the query of a GET (facebook). */
  readonly allowGet?: boolean;
  /** `redirect_uri` may be left out of the token request, but must match when sent (github). */
  readonly redirectUriOptional?: boolean;
  /** A missing `grant_type` means `authorization_code` (github, facebook). */
  readonly grantTypeOptional?: boolean;
}

/**
 * A refused token request, with the RFC 6749 5.2 error code.
 *
 * @since 0.1.0
 * @category token
 */
export interface TokenFailure {
  readonly error: "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type";
  readonly description: string;
}

/**
 * An accepted token request: the client, what the tokens stand for, and for a code its
 * authorization (nonce, offline) and the code itself (tokens are recorded against it).
 *
 * @since 0.1.0
 * @category token
 */
export interface TokenGranted {
  readonly client: DevClient;
  readonly grant: TokenGrant;
  readonly authorization?: CodeGrant;
  readonly code?: string;
  /** The refresh token presented (refresh grants). */
  readonly refreshToken?: string;
}

const failure = (error: TokenFailure["error"], description: string) =>
  Either.left<TokenFailure>({ error, description });

/** The parameters of a token request: a urlencoded POST body (or a GET query where allowed). */
const readTokenParams = (
  request: HttpServerRequest.HttpServerRequest,
  dialect: TokenDialect,
): Effect.Effect<Either.Either<RequestParams, TokenFailure>> => {
  if (request.method === "GET" && dialect.allowGet === true) {
    return Effect.succeed(Either.right(queryParams(request.url)));
  }
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (request.method !== "POST" || type !== "application/x-www-form-urlencoded") {
    return Effect.succeed(
      failure("invalid_request", "POST an application/x-www-form-urlencoded body"),
    );
  }
  return request.urlParamsBody.pipe(
    Effect.map((entries) => Either.right(readParams(entries))),
    Effect.orElseSucceed(() => failure("invalid_request", "The body could not be read")),
  );
};

const toTokenGrant = (grant: CodeGrant): TokenGrant => ({
  provider: grant.provider,
  clientId: grant.clientId,
  user: grant.user,
  scopes: grant.scopes,
  ...(grant.tenant === undefined ? {} : { tenant: grant.tenant }),
});

/**
 * Checks the token request in context for `dialect`.
 *
 * @since 0.1.0
 * @category token
 */
export const checkTokenRequest = (
  context: DialectContext,
  dialect: TokenDialect,
): Effect.Effect<
  Either.Either<TokenGranted, TokenFailure>,
  never,
  HttpServerRequest.HttpServerRequest
> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const read = yield* readTokenParams(request, dialect);
    if (Either.isLeft(read)) return Either.left(read.left);
    const params = read.right;
    if (params.duplicates.length > 0) {
      return failure("invalid_request", `Repeated parameter: ${params.duplicates.join(", ")}`);
    }
    const authenticated = authenticateClient(
      context.clients,
      dialect.provider,
      dialect.clientAuth,
      request.headers.authorization,
      params,
    );
    if (Either.isLeft(authenticated)) {
      return failure("invalid_client", authenticated.left.description);
    }
    const client = authenticated.right;
    const grantType =
      params.get("grant_type") ??
      (dialect.grantTypeOptional === true ? "authorization_code" : undefined);

    if (grantType === "refresh_token" && dialect.refresh) {
      const presented = params.get("refresh_token");
      if (presented === undefined) return failure("invalid_request", "refresh_token is required");
      const grant = yield* context.grants.refreshGrant(presented, dialect.provider);
      if (Option.isNone(grant) || grant.value.clientId !== client.clientId) {
        return failure("invalid_grant", "The refresh token is invalid or was revoked");
      }
      return Either.right({ client, grant: grant.value, refreshToken: presented });
    }
    if (grantType !== "authorization_code") {
      return failure("unsupported_grant_type", "grant_type must be authorization_code");
    }

    const code = params.get("code");
    if (code === undefined) return failure("invalid_request", "code is required");
    const redeemed = yield* context.grants.redeemCode(code);
    if (Either.isLeft(redeemed)) {
      const why = {
        unknown: "The code is invalid",
        expired: "The code has expired",
        replayed: "The code was already used; the tokens issued for it are revoked",
      } as const;
      return failure("invalid_grant", why[redeemed.left]);
    }
    const authorization = redeemed.right;
    if (authorization.clientId !== client.clientId) {
      return failure("invalid_grant", "The code was issued to another client");
    }
    const redirectUri = params.get("redirect_uri");
    if (
      (authorization.redirectUriSent &&
        dialect.redirectUriOptional !== true &&
        redirectUri !== authorization.redirectUri) ||
      (redirectUri !== undefined && redirectUri !== authorization.redirectUri)
    ) {
      return failure("invalid_grant", "redirect_uri does not match the authorization request");
    }
    const verifier = params.get("code_verifier");
    if (authorization.codeChallenge === undefined) {
      if (verifier !== undefined) {
        return failure("invalid_grant", "code_verifier sent, but the request had no challenge");
      }
    } else if (verifier === undefined) {
      return failure("invalid_grant", "code_verifier is required (PKCE)");
    } else if (!verifyS256(authorization.codeChallenge, verifier)) {
      return failure("invalid_grant", "PKCE verification failed: code_verifier does not match");
    }
    return Either.right({ client, grant: toTokenGrant(authorization), authorization, code });
  });

/**
 * The tokens of an accepted request.
 *
 * @since 0.1.0
 * @category token
 */
export interface IssuedTokens {
  readonly accessToken: string;
  /** The refresh token to return, if any. */
  readonly refreshToken?: string;
}

/**
 * Issues the tokens of an accepted request: an access token valid for `lifetimeSeconds`
 * (forever without), and a refresh token when the authorization asked for one (`offline`);
 * a refresh grant keeps its refresh token, or gets a new one when `rotate` (the old one is
 * revoked).
 *
 * @since 0.1.0
 * @category token
 */
export const issueTokens = (
  context: DialectContext,
  granted: TokenGranted,
  options: { readonly lifetimeSeconds?: number; readonly rotate?: boolean },
): Effect.Effect<IssuedTokens> =>
  Effect.gen(function* () {
    const { grants } = context;
    const accessToken = yield* grants.issueAccessToken(
      granted.grant,
      options.lifetimeSeconds === undefined ? undefined : `${options.lifetimeSeconds} seconds`,
      granted.code,
    );
    if (granted.refreshToken !== undefined) {
      if (options.rotate !== true) return { accessToken, refreshToken: granted.refreshToken };
      yield* grants.revoke(granted.refreshToken);
      return { accessToken, refreshToken: yield* grants.issueRefreshToken(granted.grant) };
    }
    if (granted.authorization?.offline !== true) return { accessToken };
    return {
      accessToken,
      refreshToken: yield* grants.issueRefreshToken(granted.grant, granted.code),
    };
  });
