/**
 * Profile answers: a non-2xx status as a failure, a payload decoded with a schema, and the
 * fields of an {@link OAuthUser}. The requests themselves go through `providerHttp.ts`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import type * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { type ProfileError, ProfileFetchFailed, ProviderUnreachable } from "../OAuthError.js";
import type { OAuthUser } from "../OAuthResult.js";
import type { ProviderName } from "../SupportedProvider.js";
import { getJson, type ProviderHttp } from "./providerHttp.js";

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
  options: ProviderHttp,
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
const nonEmpty = (value: string | null | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/**
 * `true` for a claim that says yes: JSON `true`, or the strings `"true"` and `"1"` some
 * providers send; anything else (absent, `false`, `"0"`, `"false"`) is `false`.
 */
export const claimIsTrue = (value: unknown): boolean =>
  value === true || value === "true" || value === "1";

/**
 * An {@link OAuthUser} from optional fields, empty ones left out; `emailVerified` (not
 * verified unless said) is set whenever the email is kept.
 */
export const toUser = (fields: {
  readonly id: string;
  readonly email?: string | null | undefined;
  /** Whether the provider marked `email` verified. */
  readonly emailVerified?: boolean;
  readonly name?: string | null | undefined;
  readonly picture?: string | null | undefined;
}): OAuthUser => {
  const email = nonEmpty(fields.email);
  const name = nonEmpty(fields.name);
  const picture = nonEmpty(fields.picture);
  return {
    id: fields.id,
    ...(email === undefined ? {} : { email, emailVerified: fields.emailVerified === true }),
    ...(name === undefined ? {} : { name }),
    ...(picture === undefined ? {} : { picture }),
  };
};
