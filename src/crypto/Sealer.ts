/**
 * Sealing: authenticated encryption (AES-256-GCM, node:crypto) of short texts a client keeps
 * but may neither read nor change, such as sealed cookies. A sealer is bound to one
 * {@link SealingPurpose}: its key is derived for that purpose and the purpose is authenticated
 * with every value, so a value sealed for one purpose (an OAuth transaction) never opens as
 * another (a session), even under the same secret (SECURITY.md 33).
 *
 * @since 0.1.0
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync } from "node:crypto";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { SecureRandom } from "./SecureRandom.js";

/**
 * What a sealer is for: the HKDF `salt` and `info` that derive its key from a secret, and the
 * additional authenticated data (`aad`) sealed with every value. Give each use its own.
 *
 * @since 0.1.0
 * @category sealing
 */
export interface SealingPurpose {
  readonly salt: string;
  readonly info: string;
  readonly aad: string;
}

/**
 * Seals and opens texts for one purpose.
 *
 * @since 0.1.0
 * @category sealing
 */
export interface Sealer {
  /** `plaintext` encrypted and authenticated (a fresh random IV each time), cookie-safe. */
  readonly seal: (plaintext: string) => Effect.Effect<string>;
  /** The text inside `sealed`; `undefined` for anything not sealed by this key and purpose. */
  readonly open: (sealed: string) => string | undefined;
}

/** The shortest secret {@link deriveKey} is given by Strata, in characters. @since 0.1.0 @category sealing */
export const MIN_SECRET_LENGTH = 32;

const VERSION = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const base64url = /^[A-Za-z0-9_-]+$/;

/**
 * The 256-bit AES key of `purpose` under `secret` (HKDF-SHA256 with the purpose's salt and info).
 *
 * @since 0.1.0
 * @category sealing
 */
export const deriveKey = (
  secret: Redacted.Redacted<string>,
  purpose: SealingPurpose,
): Redacted.Redacted<Uint8Array> =>
  Redacted.make(
    new Uint8Array(hkdfSync("sha256", Redacted.value(secret), purpose.salt, purpose.info, 32)),
  );

/**
 * A sealer with a 256-bit `key` (derived by {@link deriveKey}, or random) for `purpose`; IVs
 * come from {@link SecureRandom}. The sealed form is `v1.` then base64url of
 * `iv | ciphertext | tag`; `open` accepts only that canonical encoding.
 *
 * @since 0.1.0
 * @category sealing
 */
export const make = (
  key: Redacted.Redacted<Uint8Array>,
  purpose: SealingPurpose,
): Effect.Effect<Sealer> =>
  Effect.map(SecureRandom, (random) => {
    // Imported into a key object once, not on every call.
    const secretKey = createSecretKey(Redacted.value(key));
    const aad = Buffer.from(purpose.aad);
    return {
      seal: (plaintext) =>
        Effect.map(random.bytes(IV_BYTES), (iv) => {
          const cipher = createCipheriv("aes-256-gcm", secretKey, iv);
          cipher.setAAD(aad);
          const body = cipher.update(plaintext, "utf8");
          const last = cipher.final();
          const sealed = Buffer.allocUnsafe(IV_BYTES + body.length + last.length + TAG_BYTES);
          sealed.set(iv, 0);
          sealed.set(body, IV_BYTES);
          sealed.set(last, IV_BYTES + body.length);
          sealed.set(cipher.getAuthTag(), IV_BYTES + body.length + last.length);
          return `${VERSION}${sealed.toString("base64url")}`;
        }),
      open: (sealed) => {
        if (!sealed.startsWith(VERSION)) return undefined;
        const encoded = sealed.slice(VERSION.length);
        if (!base64url.test(encoded)) return undefined;
        const bytes = Buffer.from(encoded, "base64url");
        // Only the canonical encoding: trailing characters node would ignore are refused too.
        if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.toString("base64url") !== encoded) {
          return undefined;
        }
        try {
          const decipher = createDecipheriv("aes-256-gcm", secretKey, bytes.subarray(0, IV_BYTES));
          decipher.setAAD(aad);
          decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
          return Buffer.concat([
            decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
            decipher.final(),
          ]).toString("utf8");
        } catch {
          return undefined;
        }
      },
    } satisfies Sealer;
  });
