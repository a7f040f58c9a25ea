/**
 * A Redis session store (ioredis), shared by every app instance pointed at the same Redis: the
 * cookie carries only a random 256-bit id, the session stays in Redis, and ending it (sign-out,
 * rotation, "sign out everywhere") works at once on every instance: a copied cookie stops
 * working.
 *
 * Keys (under `keyPrefix`, default `strata:session:`): `s:<id>` holds a session's JSON until
 * its idle timeout or absolute lifetime, whichever comes first; `u:<userId>` is the set of a
 * user's session ids, kept as long as its longest-lived session. Each operation is one Lua
 * script, so "sign out everywhere" never races a login or a write-back. The scripts name the
 * session keys of a user's set themselves: one Redis (or a primary with replicas), not Redis
 * Cluster.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import type { Redis, RedisOptions } from "ioredis";
import { randomToken } from "../crypto/SecureRandom.js";
import type { StartupError } from "../di/StartupError.js";
import { makeBatchedGet } from "../redis/BatchedGet.js";
import { scopedRedisClient } from "../redis/RedisClient.js";
import {
  isSessionRecord,
  SESSION_ID,
  type SessionRecord,
  SessionStore,
  SessionStoreError,
  type SessionStoreService,
} from "./SessionStore.js";

/**
 * Options of {@link layer}: ioredis options (`host`, `port`, `password`, `db`, `tls`, ...), with
 * defaults suited to a store on the request path: `keyPrefix` `strata:session:`, auto-pipelining
 * (the writes of concurrent requests go to Redis in one write; their session reads are gathered
 * per event-loop turn into one `MGET` in any case), no offline queue (a
 * command fails at once while Redis is unreachable), `commandTimeout` 500 ms, `connectTimeout`
 * 2 000 ms, reconnection forever with a backoff up to 2 s.
 *
 * @since 0.1.0
 * @category store
 */
export type RedisSessionStoreOptions = RedisOptions;

// KEYS: s:<id>, u:<userId>. ARGV: json, ttl ms, id, has user, prefix of session keys.
// A new session; its user's set drops the ids of sessions already gone.
const CREATE = `
if not redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then return 0 end
if ARGV[4] == "1" then
  for _, id in ipairs(redis.call("SMEMBERS", KEYS[2])) do
    if redis.call("EXISTS", ARGV[5] .. id) == 0 then redis.call("SREM", KEYS[2], id) end
  end
  redis.call("SADD", KEYS[2], ARGV[3])
  if redis.call("PTTL", KEYS[2]) < tonumber(ARGV[2]) then redis.call("PEXPIRE", KEYS[2], ARGV[2]) end
end
return 1
`;

// KEYS: s:<id>, u:<userId>. ARGV: json, ttl ms, has user. Only a session that still exists.
const UPDATE = `
if not redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "XX") then return 0 end
if ARGV[3] == "1" and redis.call("PTTL", KEYS[2]) < tonumber(ARGV[2]) then
  redis.call("PEXPIRE", KEYS[2], ARGV[2])
end
return 1
`;

// KEYS: s:<id>, u:<userId>. ARGV: id, has user.
const DESTROY = `
redis.call("DEL", KEYS[1])
if ARGV[2] == "1" then redis.call("SREM", KEYS[2], ARGV[1]) end
return 1
`;

// KEYS: u:<userId>. ARGV: prefix of session keys.
const DESTROY_ALL = `
local ids = redis.call("SMEMBERS", KEYS[1])
for _, id in ipairs(ids) do redis.call("DEL", ARGV[1] .. id) end
redis.call("DEL", KEYS[1])
return #ids
`;

interface RedisWithScripts extends Redis {
  strataSessionCreate(
    key: string,
    userKey: string,
    json: string,
    ttl: number,
    id: string,
    hasUser: string,
    prefix: string,
  ): Promise<number>;
  strataSessionUpdate(
    key: string,
    userKey: string,
    json: string,
    ttl: number,
    hasUser: string,
  ): Promise<number>;
  strataSessionDestroy(key: string, userKey: string, id: string, hasUser: string): Promise<number>;
  strataSessionDestroyAll(userKey: string, prefix: string): Promise<number>;
}

const storeError = (command: string) => (cause: unknown) =>
  new SessionStoreError({ message: `Redis session store: ${command} failed`, cause });

/** How many session JSON strings a store keeps parsed (the oldest goes first). */
const RECENT_RECORDS = 1_024;

const parse = (json: string): Option.Option<SessionRecord> => {
  try {
    const value: unknown = JSON.parse(json);
    return isSessionRecord(value) ? Option.some(value) : Option.none();
  } catch {
    return Option.none();
  }
};

const userKey = (record: SessionRecord) => `u:${record.userId ?? ""}`;
const hasUser = (record: SessionRecord) => (record.userId === undefined ? "0" : "1");

/**
 * The store, on a Redis client it opens when the layer is built (waiting up to
 * `connectTimeout`; an unreachable Redis is logged, not fatal, and retried in the background)
 * and closes with the layer's scope. While Redis is unreachable every operation fails with a
 * `SessionStoreError` (503 from the `Session` service, nothing about Redis in the body).
 *
 * @example
 * const Store = RedisSessionStore.layer({ host: "127.0.0.1", port: 6379 });
 *
 * @since 0.1.0
 * @category store
 */
export const layer = (
  options: RedisSessionStoreOptions = {},
): Layer.Layer<SessionStore, StartupError> =>
  Layer.scoped(
    SessionStore,
    Effect.gen(function* () {
      const redis = (yield* scopedRedisClient("Redis session store", "strata:session:", {
        enableAutoPipelining: true,
        ...options,
      })) as RedisWithScripts;
      redis.defineCommand("strataSessionCreate", { numberOfKeys: 2, lua: CREATE });
      redis.defineCommand("strataSessionUpdate", { numberOfKeys: 2, lua: UPDATE });
      redis.defineCommand("strataSessionDestroy", { numberOfKeys: 2, lua: DESTROY });
      redis.defineCommand("strataSessionDestroyAll", { numberOfKeys: 1, lua: DESTROY_ALL });
      // The scripts name session keys themselves: ioredis prefixes only the keys it is given.
      const sessionKeys = `${redis.options.keyPrefix ?? ""}s:`;
      const ttl = (expiresAt: number, now: number) => Math.max(1, Math.ceil(expiresAt - now));
      const run = <A>(command: string, call: () => Promise<A>) =>
        Effect.tryPromise({ try: call, catch: storeError(command) });
      // The session reads of the requests of one event-loop turn go out as one MGET.
      const get = makeBatchedGet(redis);
      const loadFailed = storeError("load");
      // The records of the session JSON read lately: a session read again unchanged is the same
      // record, which the Session service has already decoded (no JSON.parse, no Schema pass).
      const recent = new Map<string, Option.Option<SessionRecord>>();
      const recordOf = (json: string): Option.Option<SessionRecord> => {
        let record = recent.get(json);
        if (record === undefined) {
          record = parse(json);
          if (recent.size >= RECENT_RECORDS) recent.delete(recent.keys().next().value as string);
          recent.set(json, record);
        }
        return record;
      };
      return SessionStore.of({
        create: Effect.fn("RedisSessionStore.create")(function* (record, expiresAt) {
          const id = yield* randomToken(32);
          const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis);
          const created = yield* run("create", () =>
            redis.strataSessionCreate(
              `s:${id}`,
              userKey(record),
              JSON.stringify(record),
              ttl(expiresAt, now),
              id,
              hasUser(record),
              sessionKeys,
            ),
          );
          // Refused: the id is taken (never, with 256 random bits, unless randomness is broken).
          if (created !== 1) return yield* storeError("create")("the id is taken");
          return id;
        }),
        load: (cookieValue) =>
          // Anything that is not an id this store made is unknown, without asking Redis.
          SESSION_ID.test(cookieValue)
            ? Effect.map(get(`s:${cookieValue}`, loadFailed), (json) =>
                json === null ? Option.none() : recordOf(json),
              )
            : Effect.succeedNone,
        update: (cookieValue, record, expiresAt) =>
          Effect.flatMap(
            Effect.clockWith((clock) => clock.currentTimeMillis),
            (now) =>
              Effect.map(
                run("update", () =>
                  redis.strataSessionUpdate(
                    `s:${cookieValue}`,
                    userKey(record),
                    JSON.stringify(record),
                    ttl(expiresAt, now),
                    hasUser(record),
                  ),
                ),
                (updated) => (updated === 1 ? Option.some(cookieValue) : Option.none()),
              ),
          ),
        destroy: (cookieValue, record) =>
          SESSION_ID.test(cookieValue)
            ? Effect.asVoid(
                run("destroy", () =>
                  redis.strataSessionDestroy(
                    `s:${cookieValue}`,
                    userKey(record),
                    cookieValue,
                    hasUser(record),
                  ),
                ),
              )
            : Effect.void,
        destroyAllFor: (userId) =>
          Effect.asVoid(
            run("destroyAllFor", () => redis.strataSessionDestroyAll(`u:${userId}`, sessionKeys)),
          ),
      } satisfies SessionStoreService);
    }),
  );
