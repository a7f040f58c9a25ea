/**
 * PKCE (RFC 7636) as the development identity provider checks it: S256 only, a verifier of
 * 43 to 128 unreserved characters whose SHA-256 is the challenge of the authorization request.
 *
 * @since 0.1.0
 */
import { createHash, timingSafeEqual } from "node:crypto";

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** `true` when `challenge` has the shape of an S256 challenge (43 base64url characters). @since 0.1.0 @category pkce */
export const isS256Challenge = (challenge: string): boolean => CHALLENGE.test(challenge);

/**
 * `true` when `verifier` is well formed and its S256 transform equals `challenge`
 * (compared in constant time).
 *
 * @since 0.1.0
 * @category pkce
 */
export const verifyS256 = (challenge: string, verifier: string): boolean => {
  if (!VERIFIER.test(verifier)) return false;
  const expected = Buffer.from(challenge);
  const actual = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
};
