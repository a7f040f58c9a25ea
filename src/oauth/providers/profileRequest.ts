/**
 * Profile requests with `@effect/platform`'s `HttpClient` (so tests can mock it): a bearer
 * token, a `User-Agent`, a timeout over the whole exchange and a cap on the body size.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { identity } from "effect/Function";
import type * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import * as Stream from "effect/Stream";
import {
  type ProfileError,
  ProfileFetchFailed,
  ProviderTimeout,
  ProviderUnreachable,
} from "../OAuthError.js";
import type { ResolvedProviderSettings } from "../OAuthProvider.js";
import type { OAuthUser } from "../OAuthResult.js";
import type { ProviderName } from "../SupportedProvider.js";
import { systemCode } from "./tokenRequest.js";

/** How a provider's profile requests are made. */
export interface ProfileRequestOptions {
  readonly provider: ProviderName;
  readonly client: HttpClient.HttpClient;
  readonly timeout: Duration.Duration;
  readonly maxBytes: number;
  readonly userAgent: string;
}

/** The profile request options of a provider: its settings and the `HttpClient` in context. */
export const profileOptions = (
  provider: ProviderName,
  settings: ResolvedProviderSettings,
): Effect.Effect<ProfileRequestOptions, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => ({
    provider,
    client,
    timeout: settings.timeout,
    maxBytes: settings.maxProfileBytes,
    userAgent: settings.userAgent,
  }));

/** A JSON answer: its status and the parsed body (`undefined` for a non-2xx status). */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

const tooLarge = (provider: ProviderName) =>
  new ProfileFetchFailed({ provider, reason: "too_large" });

/**
 * GETs `url` (with the access token as a bearer token, when there is one) and reads a JSON
 * body of at most `maxBytes`. A non-2xx status is returned (body not read) for the caller to judge; transport
 * failures are {@link ProviderUnreachable}, a slow answer {@link ProviderTimeout} (the request
 * is aborted), an oversized or non-JSON body {@link ProfileFetchFailed}.
 */
export const getJson = (
  options: ProfileRequestOptions,
  url: string,
  accessToken: Redacted.Redacted<string> | undefined,
  headers: Readonly<Record<string, string>> = {},
): Effect.Effect<JsonAnswer, ProfileError> => {
  const { provider, maxBytes } = options;
  const request = HttpClientRequest.get(url).pipe(
    accessToken === undefined ? identity : HttpClientRequest.bearerToken(accessToken),
    HttpClientRequest.acceptJson,
    HttpClientRequest.setHeaders({ "user-agent": options.userAgent, ...headers }),
  );
  return Effect.scoped(
    Effect.gen(function* () {
      const response = yield* options.client.execute(request);
      if (response.status < 200 || response.status >= 300) {
        return { status: response.status, body: undefined };
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) return yield* tooLarge(provider);
      const chunks: Array<Uint8Array> = [];
      yield* response.stream.pipe(
        Stream.runFoldEffect(0, (size, chunk) => {
          const next = size + chunk.length;
          if (next > maxBytes) return Effect.fail(tooLarge(provider));
          chunks.push(chunk);
          return Effect.succeed(next);
        }),
      );
      const text = Buffer.concat(chunks).toString("utf8");
      const body = yield* Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: () => new ProfileFetchFailed({ provider, reason: "malformed" }),
      });
      return { status: response.status, body };
    }),
  ).pipe(
    Effect.catchTags({
      RequestError: (error) => {
        const detail = systemCode(error.cause);
        return Effect.fail(
          new ProviderUnreachable(detail === undefined ? { provider } : { provider, detail }),
        );
      },
      ResponseError: () => Effect.fail(new ProviderUnreachable({ provider })),
    }),
    Effect.timeoutFail({
      duration: options.timeout,
      onTimeout: () => new ProviderTimeout({ provider, operation: "profile" }),
    }),
  );
};

/** A non-2xx profile answer as a failure: 5xx is an unavailable provider, else a failed fetch. */
export const statusFailure = (provider: ProviderName, status: number): ProfileError =>
  status >= 500
    ? new ProviderUnreachable({ provider, status })
    : new ProfileFetchFailed({ provider, reason: "status", status });

/** Decodes a profile payload; a payload of another shape is a malformed profile. */
export const decodeProfile = <A, I>(
  provider: ProviderName,
  schema: Schema.Schema<A, I>,
  body: unknown,
): Effect.Effect<A, ProfileFetchFailed> =>
  Schema.decodeUnknown(schema)(body).pipe(
    Effect.mapError(() => new ProfileFetchFailed({ provider, reason: "malformed" })),
  );

/** GETs a profile document that must answer 2xx and decode with `schema`. */
export const getProfile = <A, I>(
  options: ProfileRequestOptions,
  url: string,
  accessToken: Redacted.Redacted<string>,
  schema: Schema.Schema<A, I>,
  headers?: Readonly<Record<string, string>>,
): Effect.Effect<A, ProfileError> =>
  Effect.flatMap(getJson(options, url, accessToken, headers), (answer) =>
    answer.status >= 200 && answer.status < 300
      ? decodeProfile(options.provider, schema, answer.body)
      : Effect.fail(statusFailure(options.provider, answer.status)),
  );

/** A string that is not empty, else `undefined` (profile fields are often `""` or `null`). */
export const nonEmpty = (value: string | null | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/** An {@link OAuthUser} from optional fields, empty ones left out. */
export const toUser = (fields: {
  readonly id: string;
  readonly email?: string | null | undefined;
  readonly name?: string | null | undefined;
  readonly picture?: string | null | undefined;
}): OAuthUser => {
  const email = nonEmpty(fields.email);
  const name = nonEmpty(fields.name);
  const picture = nonEmpty(fields.picture);
  return {
    id: fields.id,
    ...(email === undefined ? {} : { email }),
    ...(name === undefined ? {} : { name }),
    ...(picture === undefined ? {} : { picture }),
  };
};
