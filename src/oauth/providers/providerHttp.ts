/**
 * Every outbound request of a provider (token endpoint, profile API, discovery document, key
 * set) goes through `@effect/platform`'s `HttpClient`, never through a global `fetch` nor a
 * library's own: the app chooses the client (the classic face provides `FetchHttpClient`),
 * tests can mock it, and an app that replaces the global fetch dispatcher (undici 7, loaded by
 * `@effect/platform-node`) does not break token requests. Each exchange has a timeout (its
 * interruption aborts the request) and each body a size cap.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient";
import type * as HttpClientError from "@effect/platform/HttpClientError";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { identity } from "effect/Function";
import type * as Redacted from "effect/Redacted";
import * as Stream from "effect/Stream";
import { ProfileFetchFailed, ProviderTimeout, ProviderUnreachable } from "../OAuthError.js";
import type { ResolvedProviderSettings } from "../OAuthProvider.js";
import type { ProviderName } from "../SupportedProvider.js";

/** How a provider's outbound requests are made. */
export interface ProviderHttp {
  readonly provider: ProviderName;
  readonly client: HttpClient.HttpClient;
  readonly timeout: Duration.Duration;
  /** The largest body read from any answer (`maxProfileBytes`). */
  readonly maxBytes: number;
  readonly userAgent: string;
}

/** The outbound requests of a provider: its settings and the `HttpClient` in context. */
export const providerHttp = (
  provider: ProviderName,
  settings: ResolvedProviderSettings,
): Effect.Effect<ProviderHttp, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => ({
    provider,
    client,
    timeout: settings.timeout,
    maxBytes: settings.maxProfileBytes,
    userAgent: settings.userAgent,
  }));

/** What an outbound request is for (named by a {@link ProviderTimeout}). */
export type Operation = ProviderTimeout["operation"];

/** A system error code (`ECONNREFUSED`, `ENOTFOUND`, ...) somewhere in a cause chain, if any. */
const systemCode = (error: unknown): string | undefined => {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
};

/** A failed exchange with no usable answer, keeping at most a system code. */
const unreachable = (provider: ProviderName, error: HttpClientError.HttpClientError) => {
  const detail = error._tag === "RequestError" ? systemCode(error.cause) : undefined;
  return new ProviderUnreachable(detail === undefined ? { provider } : { provider, detail });
};

/**
 * Sends `request` (with the provider's `User-Agent`) and reads the answer with `read`, both
 * within the timeout: a transport failure is {@link ProviderUnreachable}, a slow exchange
 * {@link ProviderTimeout} (the request is aborted, not left running).
 */
export const send = <A, E>(
  http: ProviderHttp,
  operation: Operation,
  request: HttpClientRequest.HttpClientRequest,
  read: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, E>,
): Effect.Effect<A, E | ProviderUnreachable | ProviderTimeout> =>
  Effect.scoped(
    Effect.flatMap(
      Effect.mapError(
        http.client.execute(HttpClientRequest.setHeader(request, "user-agent", http.userAgent)),
        (error) => unreachable(http.provider, error),
      ),
      read,
    ),
  ).pipe(
    Effect.timeoutFail({
      duration: http.timeout,
      onTimeout: () => new ProviderTimeout({ provider: http.provider, operation }),
    }),
  );

/**
 * The body of `response` as text, never buffering more than `maxBytes`: a larger declared or
 * streamed body is {@link ProfileFetchFailed} `too_large` (the rest is not read).
 */
const readText = (
  http: ProviderHttp,
  response: HttpClientResponse.HttpClientResponse,
): Effect.Effect<string, ProfileFetchFailed | ProviderUnreachable> => {
  const { provider, maxBytes } = http;
  const tooLarge = new ProfileFetchFailed({ provider, reason: "too_large" });
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Effect.fail(tooLarge);
  const chunks: Array<Uint8Array> = [];
  return response.stream.pipe(
    Stream.runFoldEffect(0, (size, chunk) => {
      const next = size + chunk.length;
      if (next > maxBytes) return Effect.fail(tooLarge);
      chunks.push(chunk);
      return Effect.succeed(next);
    }),
    Effect.mapError((error) =>
      error._tag === "ResponseError" ? unreachable(provider, error) : error,
    ),
    Effect.map(() => Buffer.concat(chunks).toString("utf8")),
  );
};

/** The body of `response` read with {@link readText} and parsed as JSON (else `malformed`). */
export const readJson = (
  http: ProviderHttp,
  response: HttpClientResponse.HttpClientResponse,
): Effect.Effect<unknown, ProfileFetchFailed | ProviderUnreachable> =>
  Effect.flatMap(readText(http, response), (text) =>
    Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new ProfileFetchFailed({ provider: http.provider, reason: "malformed" }),
    }),
  );

/** A JSON answer: its status and the parsed body (`undefined` for a non-2xx status). */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * GETs `url` (with the access token as a bearer token, when there is one) and reads a JSON
 * body of at most `maxBytes`. A non-2xx status is returned (body not read) for the caller to
 * judge; transport failures are {@link ProviderUnreachable}, a slow answer
 * {@link ProviderTimeout} (for `operation`), an oversized or non-JSON body
 * {@link ProfileFetchFailed}.
 */
export const getJson = (
  http: ProviderHttp,
  url: string,
  accessToken: Redacted.Redacted<string> | undefined,
  headers: Readonly<Record<string, string>> = {},
  operation: Operation = "profile",
): Effect.Effect<JsonAnswer, ProfileFetchFailed | ProviderUnreachable | ProviderTimeout> =>
  send(
    http,
    operation,
    HttpClientRequest.get(url).pipe(
      accessToken === undefined ? identity : HttpClientRequest.bearerToken(accessToken),
      HttpClientRequest.acceptJson,
      HttpClientRequest.setHeaders(headers),
    ),
    (response) =>
      response.status < 200 || response.status >= 300
        ? Effect.succeed({ status: response.status, body: undefined })
        : Effect.map(readJson(http, response), (body) => ({ status: response.status, body })),
  );
