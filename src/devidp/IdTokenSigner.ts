/**
 * ID tokens of the development identity provider: RS256 JWTs signed with a key pair made
 * when it starts (never written anywhere), and the JWKS that publishes the public half.
 *
 * @since 0.1.0
 */
import { createHash, generateKeyPair, type KeyObject, sign } from "node:crypto";
import * as Effect from "effect/Effect";
import { DevIdentityProviderError } from "./DevIdentityProviderError.js";

/**
 * Signs ID tokens and publishes the verification key.
 *
 * @since 0.1.0
 * @category tokens
 */
export interface IdTokenSigner {
  /** A compact RS256 JWS of `claims`. */
  readonly sign: (claims: Readonly<Record<string, unknown>>) => string;
  /** The JSON Web Key Set with the public key (`kid`, `use: sig`, `alg: RS256`). */
  readonly jwks: { readonly keys: ReadonlyArray<Readonly<Record<string, unknown>>> };
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * A signer with a fresh 2048-bit RSA key pair.
 *
 * @since 0.1.0
 * @category tokens
 */
export const makeIdTokenSigner: Effect.Effect<IdTokenSigner, DevIdentityProviderError> =
  Effect.async<{ publicKey: KeyObject; privateKey: KeyObject }, DevIdentityProviderError>(
    (resume) => {
      generateKeyPair("rsa", { modulusLength: 2048 }, (error, publicKey, privateKey) =>
        resume(
          error === null
            ? Effect.succeed({ publicKey, privateKey })
            : Effect.fail(
                new DevIdentityProviderError({
                  reason: "key",
                  message: "Could not make the ID token signing key",
                  cause: error,
                }),
              ),
        ),
      );
    },
  ).pipe(
    Effect.map(({ publicKey, privateKey }) => {
      const jwk = publicKey.export({ format: "jwk" });
      const kid = createHash("sha256").update(`${jwk.n}.${jwk.e}`).digest("base64url").slice(0, 16);
      return {
        sign: (claims) => {
          const input = `${part({ alg: "RS256", kid, typ: "JWT" })}.${part(claims)}`;
          const signature = sign("sha256", Buffer.from(input), privateKey).toString("base64url");
          return `${input}.${signature}`;
        },
        jwks: { keys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, kid, use: "sig", alg: "RS256" }] },
      };
    }),
  );

/**
 * `at_hash`: the left half of the access token's SHA-256, base64url (OpenID Connect 3.1.3.6).
 *
 * @since 0.1.0
 * @category tokens
 */
export const atHash = (accessToken: string): string =>
  createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url");
