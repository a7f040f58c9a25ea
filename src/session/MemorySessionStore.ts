/**
 * A server-side session store in this process's memory, for tests and single-instance
 * development: the cookie carries a random 256-bit id, the session stays on the server, and
 * `destroy`, `rotate` and `destroyAllFor` end sessions at once (a copied cookie stops working).
 * Sessions end with the process; behind several instances, use `RedisSessionStore`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import { randomToken } from "../crypto/SecureRandom.js";
import { makeExpiringEntries } from "../memory/ExpiringEntries.js";
import {
  SESSION_ID,
  type SessionRecord,
  SessionStore,
  SessionStoreError,
  type SessionStoreService,
} from "./SessionStore.js";

/**
 * Options of {@link layer}.
 *
 * @since 0.1.0
 * @category store
 */
export interface MemorySessionStoreOptions {
  /**
   * The most live sessions kept (default 100 000). A session is forgotten only once it has
   * expired; while this many live ones fill the store, new sessions are refused (503).
   */
  readonly maxEntries?: number;
}

/**
 * The memory store.
 *
 * @since 0.1.0
 * @category store
 */
export const layer = (options: MemorySessionStoreOptions = {}): Layer.Layer<SessionStore> =>
  Layer.effect(
    SessionStore,
    Effect.gen(function* () {
      const maxEntries = options.maxEntries ?? 100_000;
      if (!Number.isInteger(maxEntries) || maxEntries <= 0) {
        return yield* Effect.dieMessage(
          "MemorySessionStore: maxEntries must be a positive integer",
        );
      }
      const sessions = makeExpiringEntries<SessionRecord>(maxEntries);
      // The ids of each user's sessions (some may have expired: they are dropped as met).
      const byUser = new Map<string, Set<string>>();
      const full = Effect.fail(
        new SessionStoreError({ message: `MemorySessionStore: ${maxEntries} live sessions` }),
      );
      const live = (id: string, now: number): SessionRecord | undefined => {
        sessions.prune(now);
        return SESSION_ID.test(id) ? sessions.get(id) : undefined;
      };
      const forget = (id: string, userId: string | undefined) => {
        sessions.delete(id);
        if (userId !== undefined) byUser.get(userId)?.delete(id);
      };
      return SessionStore.of({
        create: (record, expiresAt) =>
          Clock.clockWith((clock) => {
            const now = clock.unsafeCurrentTimeMillis();
            if (!sessions.hasRoom(now)) return full;
            return Effect.map(randomToken(32), (id) => {
              sessions.set(id, record, expiresAt);
              if (record.userId !== undefined) {
                const ids = byUser.get(record.userId) ?? new Set();
                for (const known of ids) if (sessions.get(known) === undefined) ids.delete(known);
                byUser.set(record.userId, ids.add(id));
              }
              return id;
            });
          }),
        load: (cookieValue) =>
          Clock.clockWith((clock) =>
            Effect.succeed(Option.fromNullable(live(cookieValue, clock.unsafeCurrentTimeMillis()))),
          ),
        loadNow: (cookieValue, now) => Option.fromNullable(live(cookieValue, now)),
        update: (cookieValue, record, expiresAt) =>
          Clock.clockWith((clock) => {
            if (live(cookieValue, clock.unsafeCurrentTimeMillis()) === undefined) {
              return Effect.succeedNone;
            }
            sessions.set(cookieValue, record, expiresAt);
            return Effect.succeedSome(cookieValue);
          }),
        destroy: (cookieValue, record) => Effect.sync(() => forget(cookieValue, record.userId)),
        destroyAllFor: (userId) =>
          Effect.sync(() => {
            for (const id of byUser.get(userId) ?? []) sessions.delete(id);
            byUser.delete(userId);
          }),
      } satisfies SessionStoreService);
    }),
  );
