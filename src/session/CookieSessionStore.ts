/**
 * The sealed-cookie session store, the default: the cookie carries the whole session,
 * AES-256-GCM sealed with a key of its own purpose (never a transaction cookie's: SECURITY.md 33),
 * so nothing is stored per session and any instance holding the secret reads it.
 *
 * What a stateless cookie cannot do, and what this store does about it:
 * - `destroy` cannot revoke one cookie: the browser's cookie is cleared, but a copy of it stays
 *   valid until its idle timeout or absolute lifetime. Use a server-side store
 *   (`RedisSessionStore`) where a copied cookie must stop working at sign-out.
 * - `destroyAllFor` ("sign out everywhere") works through a per-user generation counter kept in
 *   this process's memory: every cookie records its user's generation when it was made, and
 *   ending every session of a user moves the counter on. It holds for this instance until it
 *   restarts; behind several instances, or where it must survive a restart, use a server-side store.
 *
 * A cookie is decrypted once: opened cookies are remembered by their exact value (`cacheSize`),
 * so the requests of a signed-in browser between two write-backs cost a map lookup.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import * as Sealer from "../crypto/Sealer.js";
import { SecureRandom } from "../crypto/SecureRandom.js";
import { StartupError } from "../di/StartupError.js";
import {
  isSessionRecord,
  type SessionRecord,
  SessionStore,
  type SessionStoreService,
} from "./SessionStore.js";
import { SessionTooLarge } from "./SessionTooLarge.js";

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category store
 */
export interface CookieSessionStoreOptions {
  /**
   * The sealing secret, at least 32 characters (HKDF-SHA256 derives the AES key); give every
   * instance the same one, from config, kept `Redacted`. Without one, a random key per process
   * and a logged warning: sessions then end with the process and work on one instance only.
   */
  readonly secret?: string | Redacted.Redacted<string>;
  /**
   * How many opened cookies are remembered (default 10 000, 0 for none): a cookie sent again
   * (every request of a signed-in browser between two write-backs) is then not decrypted
   * again. Only cookies that opened are kept, under their exact value, oldest out first.
   */
  readonly cacheSize?: number;
}

/** A session cookie's purpose: its key and authenticated data are its own. */
const PURPOSE: Sealer.SealingPurpose = {
  salt: "strata/session",
  info: "session-cookie/v1",
  aad: "strata/session/cookie/v1",
};

/**
 * The longest sealed value accepted: browsers keep cookies of about 4 096 bytes, name and
 * attributes included.
 */
const MAX_COOKIE_VALUE = 3_800;

/** The sealed JSON: the record under short names, and the user's generation when it was made. */
interface Sealed {
  readonly d: unknown;
  readonly u?: string;
  readonly c: number;
  readonly t: number;
  readonly g: number;
}

const recordOf = (sealed: Sealed): SessionRecord =>
  sealed.u === undefined
    ? { data: sealed.d, createdAt: sealed.c, touchedAt: sealed.t }
    : { data: sealed.d, userId: sealed.u, createdAt: sealed.c, touchedAt: sealed.t };

const sealedOf = (record: SessionRecord, generation: number): Sealed =>
  record.userId === undefined
    ? { d: record.data, c: record.createdAt, t: record.touchedAt, g: generation }
    : {
        d: record.data,
        u: record.userId,
        c: record.createdAt,
        t: record.touchedAt,
        g: generation,
      };

/** A cookie opened: its session (as `load` answers it) and the generation it was made with. */
interface Opened {
  readonly found: Option.Option<SessionRecord>;
  readonly record: SessionRecord;
  readonly generation: number;
}

/** The sealed JSON parsed and checked; `undefined` for anything else. */
const parse = (plain: string): Opened | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const sealed = value as Sealed;
  if (!Number.isInteger(sealed.g)) return undefined;
  const record = recordOf(sealed);
  return isSessionRecord(record)
    ? { found: Option.some(record), record, generation: sealed.g }
    : undefined;
};

/** A session that does not fit: a coded failure (422 `session_too_large`), nothing written. */
const tooLarge = (length: number) =>
  Effect.fail(new SessionTooLarge({ size: length, limit: MAX_COOKIE_VALUE }));

/** The key the options give, or a random one with a warning. */
const keyOf = (
  options: CookieSessionStoreOptions,
): Effect.Effect<Redacted.Redacted<Uint8Array>, StartupError> =>
  Effect.gen(function* () {
    if (options.secret !== undefined) {
      const secret = Redacted.isRedacted(options.secret)
        ? options.secret
        : Redacted.make(options.secret);
      if (Redacted.value(secret).length < Sealer.MIN_SECRET_LENGTH) {
        return yield* new StartupError({
          message: `CookieSessionStore: the secret must have at least ${Sealer.MIN_SECRET_LENGTH} characters; generate one with \`openssl rand -base64 32\``,
        });
      }
      return Sealer.deriveKey(secret, PURPOSE);
    }
    const random = yield* SecureRandom;
    const key = yield* random.bytes(32);
    yield* Effect.logWarning(
      "CookieSessionStore: no secret configured; a random per-process key is used. Sessions will not survive a restart nor work across several instances; configure a secret.",
    );
    return Redacted.make(key);
  });

/**
 * The sealed-cookie store.
 *
 * @example
 * const Store = CookieSessionStore.layer({ secret: Redacted.make(process.env.SESSION_SECRET!) });
 *
 * @since 0.1.0
 * @category store
 */
export const layer = (
  options: CookieSessionStoreOptions = {},
): Layer.Layer<SessionStore, StartupError> =>
  Layer.effect(
    SessionStore,
    Effect.gen(function* () {
      const cacheSize = options.cacheSize ?? 10_000;
      if (!Number.isInteger(cacheSize) || cacheSize < 0) {
        return yield* new StartupError({
          message: "CookieSessionStore: cacheSize must be a whole number, 0 or more",
        });
      }
      const sealer = yield* Sealer.make(yield* keyOf(options), PURPOSE);
      // Per-user generations, moved on by `destroyAllFor`; absent means 0.
      const generations = new Map<string, number>();
      const generationOf = (userId: string | undefined) =>
        userId === undefined ? 0 : (generations.get(userId) ?? 0);
      // Cookies opened, by exact value (a sealed value always opens to the same session).
      const opened = new Map<string, Opened>();
      const unseal = (cookieValue: string): Opened | undefined => {
        const known = opened.get(cookieValue);
        if (known !== undefined) return known;
        const plain = sealer.open(cookieValue);
        const fresh = plain === undefined ? undefined : parse(plain);
        if (fresh === undefined || cacheSize === 0) return fresh;
        if (opened.size >= cacheSize) opened.delete(opened.keys().next().value as string);
        opened.set(cookieValue, fresh);
        return fresh;
      };
      /** The live session inside `cookieValue`, with its generation. */
      const open = (cookieValue: string): Opened | undefined => {
        const found = unseal(cookieValue);
        return found === undefined || found.generation < generationOf(found.record.userId)
          ? undefined
          : found;
      };
      const seal = (record: SessionRecord, generation: number) =>
        Effect.flatMap(sealer.seal(JSON.stringify(sealedOf(record, generation))), (value) =>
          value.length > MAX_COOKIE_VALUE ? tooLarge(value.length) : Effect.succeed(value),
        );
      return SessionStore.of({
        create: (record) => seal(record, generationOf(record.userId)),
        load: (cookieValue) => Effect.sync(() => open(cookieValue)?.found ?? Option.none()),
        loadNow: (cookieValue) => open(cookieValue)?.found ?? Option.none(),
        update: (cookieValue, record) =>
          Effect.suspend(() => {
            // The generation the cookie was made with: a session ended meanwhile stays ended.
            const found = open(cookieValue);
            return found === undefined
              ? Effect.succeedNone
              : Effect.asSome(seal(record, found.generation));
          }),
        destroy: () => Effect.void,
        destroyAllFor: (userId) =>
          Effect.sync(() => {
            generations.set(userId, generationOf(userId) + 1);
          }),
      } satisfies SessionStoreService);
    }),
  );
