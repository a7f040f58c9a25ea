/**
 * The token endpoint's form requests (RFC 6749 4.1.3 and 6, RFC 7009): the requests arctic's
 * `OAuth2Client` and provider classes make, read as arctic reads the answers, but sent by
 * Strata through the provider's `HttpClient` (`providerHttp.ts`). arctic calls the global
 * `fetch` with a `Content-Length` of its own, which node 20's fetch doubles (`N, N`); an app
 * that loads undici 7 (`@effect/platform-node` does) gets an undici 7 global dispatcher that
 * refuses that header, and arctic takes no fetch and no abort signal. Here the request has a
 * timeout that aborts it and a size cap on the answer.
 *
 * @since 0.1.0
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse";
import { OAuth2Tokens } from "arctic";
import * as Effect from "effect/Effect";
import { identity } from "effect/Function";
import {
  CodeRejected,
  ProviderUnreachable,
  type TokenError,
  TokenResponseMalformed,
  toOAuthErrorCode,
} from "../OAuthError.js";
import { type Operation, type ProviderHttp, readJson, send } from "./providerHttp.js";

/** A provider's client at its token endpoint, and how its answers deviate. */
export interface TokenClient {
  readonly clientId: string;
  /** `null` for a public client, which sends its `client_id` in the body. */
  readonly secret: string | null;
  readonly redirectUri: string;
  /** How a confidential client authenticates (arctic's `OAuth2Client`: basic). */
  readonly authentication?: "client_secret_basic" | "client_secret_post";
  /** Extra request headers (Entra wants an `Origin` from public clients). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The OAuth error code of an error body, when it is a refusal; by default a string `error`
   * (facebook also sends Graph errors, `{ error: { type } }`).
   */
  readonly refusal?: (body: Readonly<Record<string, unknown>>) => string | undefined;
  /** GitHub answers refusals with 200 and an `error` body. */
  readonly refusesWith200?: boolean;
}

const standardRefusal = (body: Readonly<Record<string, unknown>>) =>
  typeof body.error === "string" ? body.error : undefined;

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

/** A JSON object body; anything else (oversized included) is a malformed answer. */
const objectBody = (http: ProviderHttp, response: HttpClientResponse.HttpClientResponse) => {
  const malformed = new TokenResponseMalformed({
    provider: http.provider,
    status: response.status,
  });
  return readJson(http, response).pipe(
    Effect.catchTag("ProfileFetchFailed", () => Effect.fail(malformed)),
    Effect.filterOrFail(isRecord, () => malformed),
  );
};

/** A refusal body as {@link CodeRejected}, else `undefined`. */
const refusalOf = (
  http: ProviderHttp,
  client: TokenClient,
  body: Readonly<Record<string, unknown>>,
): CodeRejected | undefined => {
  const code = (client.refusal ?? standardRefusal)(body);
  return code === undefined
    ? undefined
    : new CodeRejected({ provider: http.provider, oauthError: toOAuthErrorCode(code) });
};

/**
 * An answer other than 200: 400/401 with a refusal body is {@link CodeRejected}; another
 * 2xx, 400 or 401 a malformed answer; anything else an unavailable provider.
 */
const notOk = (
  http: ProviderHttp,
  client: TokenClient,
  response: HttpClientResponse.HttpClientResponse,
): Effect.Effect<never, TokenError> => {
  const { provider } = http;
  const { status } = response;
  if (status !== 400 && status !== 401) {
    return Effect.fail(
      status >= 200 && status < 300
        ? new TokenResponseMalformed({ provider, status })
        : new ProviderUnreachable({ provider, status }),
    );
  }
  return Effect.flatMap(objectBody(http, response), (body) =>
    Effect.fail(refusalOf(http, client, body) ?? new TokenResponseMalformed({ provider, status })),
  );
};

/** POSTs `params` (plus the client's authentication) and reads a 200 answer with `ok`. */
const post = <A>(
  http: ProviderHttp,
  client: TokenClient,
  operation: Operation,
  endpoint: string,
  params: Readonly<Record<string, string>>,
  ok: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, TokenError>,
): Effect.Effect<A, TokenError> => {
  const { clientId, secret } = client;
  const basic = secret !== null && client.authentication !== "client_secret_post";
  const credentials =
    secret === null
      ? { client_id: clientId }
      : basic
        ? {}
        : { client_id: clientId, client_secret: secret };
  const request = HttpClientRequest.post(endpoint).pipe(
    HttpClientRequest.bodyUrlParams({ ...params, ...credentials }),
    HttpClientRequest.acceptJson,
    HttpClientRequest.setHeaders(client.headers ?? {}),
    // arctic's encoding: base64 of the UTF-8 `id:secret`, not form-encoded first.
    basic
      ? HttpClientRequest.setHeader(
          "authorization",
          `Basic ${Buffer.from(`${clientId}:${secret}`, "utf8").toString("base64")}`,
        )
      : identity,
  );
  return send(http, operation, request, (response) =>
    response.status === 200 ? ok(response) : notOk(http, client, response),
  );
};

/** A 200 token answer: a JSON object (a refusal for GitHub), as arctic's tokens. */
const tokens =
  (http: ProviderHttp, client: TokenClient) => (response: HttpClientResponse.HttpClientResponse) =>
    Effect.flatMap(objectBody(http, response), (body) => {
      const refused = client.refusesWith200 === true ? refusalOf(http, client, body) : undefined;
      return refused === undefined ? Effect.succeed(new OAuth2Tokens(body)) : Effect.fail(refused);
    });

/** Exchanges an authorization code (with the PKCE verifier, when there is one). */
export const exchangeCode = (
  http: ProviderHttp,
  client: TokenClient,
  endpoint: string,
  code: string,
  codeVerifier: string | undefined,
): Effect.Effect<OAuth2Tokens, TokenError> =>
  post(
    http,
    client,
    "token",
    endpoint,
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirectUri,
      ...(codeVerifier === undefined ? {} : { code_verifier: codeVerifier }),
    },
    tokens(http, client),
  );

/** Refreshes an access token (asking for `scopes` when there are some). */
export const refreshAccessToken = (
  http: ProviderHttp,
  client: TokenClient,
  endpoint: string,
  refreshToken: string,
  scopes: ReadonlyArray<string>,
): Effect.Effect<OAuth2Tokens, TokenError> =>
  post(
    http,
    client,
    "refresh",
    endpoint,
    {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      ...(scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    },
    tokens(http, client),
  );

/** Revokes a token (RFC 7009): 200 is success, its body not read. */
export const revokeToken = (
  http: ProviderHttp,
  client: TokenClient,
  endpoint: string,
  token: string,
): Effect.Effect<void, TokenError> =>
  post(http, client, "revoke", endpoint, { token }, () => Effect.void);
