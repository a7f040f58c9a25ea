/**
 * OpenID Connect Discovery 1.0: an issuer's `/.well-known/openid-configuration`, read once
 * when the provider is built and kept for its life.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { OAuthConfigError } from "../OAuthProvider.js";
import { isEndpointUrl } from "../ProviderEndpoints.js";
import { decodeProfile } from "./profileRequest.js";
import { getJson, type ProviderHttp } from "./providerHttp.js";

/** What Strata reads of a discovery document. */
export const OidcMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  jwks_uri: Schema.String,
  userinfo_endpoint: Schema.optional(Schema.String),
  revocation_endpoint: Schema.optional(Schema.String),
  token_endpoint_auth_methods_supported: Schema.optional(Schema.Array(Schema.String)),
  id_token_signing_alg_values_supported: Schema.optional(Schema.Array(Schema.String)),
  authorization_response_iss_parameter_supported: Schema.optional(Schema.Boolean),
});

/** An issuer's discovery document. */
export type OidcMetadata = typeof OidcMetadata.Type;

/** Where an issuer's discovery document is (Discovery 4.1: a trailing `/` is dropped first). */
const discoveryUrl = (issuer: string): string =>
  `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;

const endpointFields = [
  "authorization_endpoint",
  "token_endpoint",
  "jwks_uri",
  "userinfo_endpoint",
  "revocation_endpoint",
] as const;

/**
 * Reads `issuer`'s discovery document (with the profile requests' timeout and size cap). It
 * must name exactly `issuer` (Discovery 4.3) and point at https endpoints (http only on
 * loopback hosts); anything else is a configuration error, naming no secret.
 */
export const discover = (
  issuer: string,
  http: ProviderHttp,
): Effect.Effect<OidcMetadata, OAuthConfigError> => {
  const url = discoveryUrl(issuer);
  const fail = (why: string) =>
    new OAuthConfigError({
      message: `${http.provider}: OpenID Connect discovery at ${url} failed: ${why}`,
    });
  return Effect.gen(function* () {
    const answer = yield* getJson(http, url, undefined);
    if (answer.status < 200 || answer.status >= 300) {
      return yield* fail(`status ${answer.status}`);
    }
    const metadata = yield* decodeProfile(http.provider, OidcMetadata, answer.body);
    if (metadata.issuer !== issuer) {
      return yield* fail(`the document names another issuer (${metadata.issuer})`);
    }
    for (const field of endpointFields) {
      const value = metadata[field];
      if (value !== undefined && !isEndpointUrl(value)) {
        return yield* fail(`${field} is not an https URL`);
      }
    }
    return metadata;
  }).pipe(
    Effect.catchTags({
      ProviderUnreachable: (error) =>
        Effect.fail(fail(error.detail ?? `unreachable${error.status ? ` (${error.status})` : ""}`)),
      ProviderTimeout: () => Effect.fail(fail("timed out")),
      ProfileFetchFailed: (error) => Effect.fail(fail(`${error.reason} document`)),
    }),
    Effect.withSpan("OidcProvider.discover"),
  );
};
