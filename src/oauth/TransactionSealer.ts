/**
 * AEAD sealing of transactions (AES-256-GCM, node:crypto): what the transaction cookie
 * carries. Any tampering, truncation or other key makes `unseal` give `None`.
 *
 * @since 0.1.0
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync } from "node:crypto";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { OAuthConfigError } from "./OAuthProvider.js";
import { OAuthTransaction, transactionJson } from "./OAuthTransaction.js";
import { SecureRandom } from "./SecureRandom.js";

/**
 * Seals and opens transactions.
 *
 * @since 0.1.0
 * @category transaction
 */
export interface TransactionSealerService {
  /** The transaction encrypted and authenticated, as a cookie-safe string. */
  readonly seal: (transaction: OAuthTransaction) => Effect.Effect<string>;
  /** The transaction inside `sealed`; `None` for anything not sealed by this key. */
  readonly unseal: (sealed: string) => Effect.Effect<Option.Option<OAuthTransaction>>;
}

/** The shortest sealing secret accepted, in characters. @since 0.1.0 @category transaction */
export const MIN_SEALING_KEY_LENGTH = 32;

const VERSION = "v1.";
const AAD = Buffer.from("strata/oauth/transaction/v1");
const IV_BYTES = 12;
const TAG_BYTES = 16;
const base64url = /^[A-Za-z0-9_-]+$/;
const decodeTransaction = Schema.decodeUnknownOption(Schema.parseJson(OAuthTransaction));

/** A 256-bit AES key from the configured secret (HKDF-SHA256). */
const deriveKey = (secret: Redacted.Redacted<string>): Buffer =>
  Buffer.from(
    hkdfSync("sha256", Redacted.value(secret), "strata/oauth", "transaction-cookie/v1", 32),
  );

/**
 * A sealer with a 256-bit key; IVs come from {@link SecureRandom}.
 *
 * @since 0.1.0
 * @category transaction
 */
export const makeSealer = (
  key: Redacted.Redacted<Uint8Array>,
): Effect.Effect<TransactionSealerService, never, never> =>
  Effect.map(SecureRandom, (random) => {
    // Imported into a key object once, not on every call.
    const secretKey = createSecretKey(Redacted.value(key));
    return {
      // iv | ciphertext | tag, written into one buffer.
      seal: (transaction) =>
        Effect.map(random.bytes(IV_BYTES), (iv) => {
          const cipher = createCipheriv("aes-256-gcm", secretKey, iv);
          cipher.setAAD(AAD);
          const body = cipher.update(transactionJson(transaction), "utf8");
          const last = cipher.final();
          const sealed = Buffer.allocUnsafe(IV_BYTES + body.length + last.length + TAG_BYTES);
          sealed.set(iv, 0);
          sealed.set(body, IV_BYTES);
          sealed.set(last, IV_BYTES + body.length);
          sealed.set(cipher.getAuthTag(), IV_BYTES + body.length + last.length);
          return `${VERSION}${sealed.toString("base64url")}`;
        }),
      unseal: (sealed) =>
        Effect.sync(() => {
          if (!sealed.startsWith(VERSION)) return Option.none();
          const encoded = sealed.slice(VERSION.length);
          if (!base64url.test(encoded)) return Option.none();
          const bytes = Buffer.from(encoded, "base64url");
          // Only the canonical encoding: trailing characters node would ignore are refused too.
          if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.toString("base64url") !== encoded) {
            return Option.none();
          }
          try {
            const decipher = createDecipheriv(
              "aes-256-gcm",
              secretKey,
              bytes.subarray(0, IV_BYTES),
            );
            decipher.setAAD(AAD);
            decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
            const plain = Buffer.concat([
              decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
              decipher.final(),
            ]);
            return decodeTransaction(plain.toString("utf8"));
          } catch {
            return Option.none();
          }
        }),
    } satisfies TransactionSealerService;
  });

/**
 * Seals transactions with a key derived from a configured secret.
 *
 * @since 0.1.0
 * @category transaction
 */
export class TransactionSealer extends Context.Tag("strata/oauth/TransactionSealer")<
  TransactionSealer,
  TransactionSealerService
>() {
  /**
   * Keyed by `secret` (at least 32 characters; HKDF-SHA256 derives the AES key). Without a
   * secret, a random per-process key and a logged warning: transactions then do not survive
   * a restart and do not work across several instances.
   */
  static readonly layer = (
    secret?: Redacted.Redacted<string>,
  ): Layer.Layer<TransactionSealer, OAuthConfigError> =>
    Layer.effect(
      TransactionSealer,
      Effect.gen(function* () {
        if (secret !== undefined) {
          if (Redacted.value(secret).length < MIN_SEALING_KEY_LENGTH) {
            return yield* new OAuthConfigError({
              message: `The OAuth sealing key must have at least ${MIN_SEALING_KEY_LENGTH} characters`,
            });
          }
          return yield* makeSealer(Redacted.make(new Uint8Array(deriveKey(secret))));
        }
        const random = yield* SecureRandom;
        const key = yield* random.bytes(32);
        yield* Effect.logWarning(
          "No OAuth sealing key configured: using a random per-process key. OAuth transactions will not survive a restart nor work across several instances; configure a sealing key.",
        );
        return yield* makeSealer(Redacted.make(key));
      }),
    );
}
