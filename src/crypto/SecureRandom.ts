/**
 * Cryptographically secure randomness as a service, so that states, PKCE verifiers, nonces,
 * transaction ids and sealing IVs come from a CSPRNG in production and from fixed values in
 * tests.
 *
 * @since 0.1.0
 */
import { createHash, randomBytes, randomFillSync } from "node:crypto";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";

/**
 * A source of random bytes. The default (used when none is provided) is node's CSPRNG.
 *
 * @since 0.1.0
 * @category randomness
 */
export interface SecureRandomService {
  /** `length` random bytes. */
  readonly bytes: (length: number) => Effect.Effect<Uint8Array>;
}

/** Bytes drawn from the CSPRNG at a time: one draw serves a few hundred tokens. */
const POOL_BYTES = 8192;
/** Requests above this size draw their own bytes. */
const MAX_POOLED = 256;
const pool = new Uint8Array(POOL_BYTES);
let poolOffset = POOL_BYTES;

/**
 * `length` bytes from node's CSPRNG, served from a pool refilled by one draw (as node does for
 * `randomUUID`): a draw costs a system call, the same order of time as the rest of an
 * authorization. Each pooled byte is handed out once and wiped from the pool.
 */
const cryptoBytes = (length: number): Uint8Array => {
  if (length > MAX_POOLED) return new Uint8Array(randomBytes(length));
  if (poolOffset + length > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = pool.slice(poolOffset, poolOffset + length);
  pool.fill(0, poolOffset, poolOffset + length);
  poolOffset += length;
  return out;
};

const cryptoRandom: SecureRandomService = {
  bytes: (length) => Effect.sync(() => cryptoBytes(length)),
};

/**
 * The randomness every OAuth value is drawn from. A `Context.Reference` whose default is
 * node's CSPRNG (`crypto.randomBytes`): providing it is only needed to replace it in tests.
 *
 * @since 0.1.0
 * @category randomness
 */
export class SecureRandom extends Context.Reference<SecureRandom>()(
  "effect-strata/oauth/SecureRandom",
  {
    defaultValue: () => cryptoRandom,
  },
) {
  /** Node's CSPRNG. */
  static readonly layer: Layer.Layer<SecureRandom> = Layer.succeed(SecureRandom, cryptoRandom);

  /**
   * Deterministic bytes for tests: a SHA-256 stream of `seed` and a counter. Every call gives
   * different bytes, the same sequence on every run. Never use it outside tests.
   */
  static readonly layerTest = (seed = "strata-test"): Layer.Layer<SecureRandom> =>
    Layer.sync(SecureRandom, () => {
      let counter = 0;
      return {
        bytes: (length) =>
          Effect.sync(() => {
            const out = new Uint8Array(length);
            for (let filled = 0; filled < length; ) {
              const block = createHash("sha256").update(`${seed}:${counter++}`).digest();
              const n = Math.min(block.length, length - filled);
              out.set(block.subarray(0, n), filled);
              filled += n;
            }
            return out;
          }),
      };
    });
}

/**
 * `length` random bytes as unpadded base64url (32 bytes, the default, give 43 characters and
 * 256 bits).
 *
 * @since 0.1.0
 * @category randomness
 */
export const randomToken = (length = 32): Effect.Effect<string> =>
  Effect.map(randomTokens(1, length), (tokens) => tokens[0]);

/**
 * `bytes` as `count` tokens of `length` bytes each, unpadded base64url: the tokens of
 * {@link randomTokens}, for callers that draw the bytes themselves.
 *
 * @since 0.1.0
 * @category randomness
 */
export const tokensOf = (bytes: Uint8Array, count: number, length = 32): Array<string> => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tokens = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    tokens[i] = buffer.toString("base64url", i * length, (i + 1) * length);
  }
  return tokens;
};

/**
 * `count` independent tokens of `length` random bytes each (see {@link randomToken}), from a
 * single draw.
 *
 * @since 0.1.0
 * @category randomness
 */
export const randomTokens = (count: number, length = 32): Effect.Effect<Array<string>> =>
  Effect.flatMap(SecureRandom, (random) =>
    Effect.map(random.bytes(count * length), (bytes) => tokensOf(bytes, count, length)),
  );
