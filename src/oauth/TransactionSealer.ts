/**
 * AEAD sealing of transactions (AES-256-GCM, through `crypto/Sealer` with the transaction
 * cookie's own purpose): what the transaction cookie carries. Any tampering, truncation, other
 * key or other purpose makes `unseal` give `None`.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import * as Sealer from "../crypto/Sealer.js";
import { SecureRandom } from "../crypto/SecureRandom.js";
import { OAuthConfigError } from "./OAuthProvider.js";
import { OAuthTransaction, transactionJson } from "./OAuthTransaction.js";

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
export const MIN_SEALING_KEY_LENGTH = Sealer.MIN_SECRET_LENGTH;

/**
 * The transaction cookie's purpose: its key and authenticated data are its own, so no other
 * sealed value (a session cookie) is ever taken for a transaction (SECURITY.md 33).
 */
const PURPOSE: Sealer.SealingPurpose = {
  salt: "strata/oauth",
  info: "transaction-cookie/v1",
  aad: "strata/oauth/transaction/v1",
};

const decodeTransaction = Schema.decodeUnknownOption(Schema.parseJson(OAuthTransaction));

/**
 * A sealer with a 256-bit key; IVs come from {@link SecureRandom}.
 *
 * @since 0.1.0
 * @category transaction
 */
export const makeSealer = (
  key: Redacted.Redacted<Uint8Array>,
): Effect.Effect<TransactionSealerService, never, never> =>
  Effect.map(Sealer.make(key, PURPOSE), (sealer) => {
    const none = Effect.succeed(Option.none<OAuthTransaction>());
    return {
      seal: (transaction) => sealer.seal(transactionJson(transaction)),
      unseal: (sealed) =>
        Effect.suspend(() => {
          const plain = sealer.open(sealed);
          return plain === undefined ? none : Effect.succeed(decodeTransaction(plain));
        }),
    } satisfies TransactionSealerService;
  });

/**
 * Seals transactions with a key derived from a configured secret.
 *
 * @since 0.1.0
 * @category transaction
 */
export class TransactionSealer extends Context.Tag("effect-strata/oauth/TransactionSealer")<
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
          return yield* makeSealer(Sealer.deriveKey(secret, PURPOSE));
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
