/**
 * Where sessions live, behind one interface: the browser always holds a cookie; the store
 * decides what it holds. The sealed-cookie store (`CookieSessionStore`, the default) puts the
 * whole session in it, encrypted; server-side stores (`RedisSessionStore`, `MemorySessionStore`)
 * put a random 256-bit id in it and keep the session themselves. An app may write its own.
 *
 * Stores keep and find records; the `Session` service decides what they mean (idle timeout,
 * absolute lifetime, data Schema), so a custom store needs no session logic of its own.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { CodedError } from "../http/CodedFailure.js";
import type { SessionTooLarge } from "./SessionTooLarge.js";

/**
 * One session as a store keeps it.
 *
 * @since 0.1.0
 * @category store
 */
export interface SessionRecord {
  /** The app's session data in its Schema's encoded (JSON) form. */
  readonly data: unknown;
  /** The user the session belongs to, when the app names one: what `destroyAllFor` ends. */
  readonly userId?: string | undefined;
  /** When the session began (epoch milliseconds): the absolute lifetime counts from here. */
  readonly createdAt: number;
  /** When it was last written back (epoch milliseconds): the idle timeout counts from here. */
  readonly touchedAt: number;
}

/**
 * A store that cannot answer (a remote store down, a full in-process one). The `Session`
 * service answers 503 and logs `message` (never ids or cookie values: keep them out of it).
 *
 * @since 0.1.0
 * @category store
 */
export class SessionStoreError extends CodedError<SessionStoreError>(
  "effect-strata/session/SessionStoreError",
)(
  "SessionStoreError",
  { message: Schema.String, cause: Schema.optional(Schema.Unknown) },
  { status: 503, code: "session_store_unavailable", message: "Service Unavailable" },
) {}

/**
 * Keeps sessions. Every `cookieValue` is what the browser sent, untrusted: a store answers
 * `None` for anything it did not issue, never fails on it.
 *
 * @since 0.1.0
 * @category store
 */
export interface SessionStoreService {
  /**
   * Keeps a new session until `expiresAt` (epoch milliseconds) and returns the value its cookie
   * carries: a fresh one on every call, never a value issued before. A store whose cookie
   * carries the session refuses one that does not fit with {@link SessionTooLarge}.
   */
  readonly create: (
    record: SessionRecord,
    expiresAt: number,
  ) => Effect.Effect<string, SessionStoreError | SessionTooLarge>;
  /** The session `cookieValue` stands for; `None` for an unknown, tampered or ended one. */
  readonly load: (
    cookieValue: string,
  ) => Effect.Effect<Option.Option<SessionRecord>, SessionStoreError>;
  /**
   * Optional: what `load` would answer, given at once by a store that needs no I/O for it (the
   * sealed-cookie and memory stores), `now` being the fiber's clock time; `undefined` to have
   * `load` asked. It lets a request with a valid session pass `SessionGuard` without a step.
   */
  readonly loadNow?: (cookieValue: string, now: number) => Option.Option<SessionRecord> | undefined;
  /**
   * Writes back a session that still exists, to be kept until `expiresAt`; the cookie value
   * that now stands for it (a sealed cookie changes, an id does not), `None` when it has ended
   * meanwhile (an ended session is never brought back).
   */
  readonly update: (
    cookieValue: string,
    record: SessionRecord,
    expiresAt: number,
  ) => Effect.Effect<Option.Option<string>, SessionStoreError | SessionTooLarge>;
  /** Ends one session: a copy of its cookie no longer works (where the store can tell). */
  readonly destroy: (
    cookieValue: string,
    record: SessionRecord,
  ) => Effect.Effect<void, SessionStoreError>;
  /** Ends every session of `userId` ("sign out everywhere"). */
  readonly destroyAllFor: (userId: string) => Effect.Effect<void, SessionStoreError>;
}

/**
 * The session store. Layers: `CookieSessionStore.layer` (default), `RedisSessionStore.layer`,
 * `MemorySessionStore.layer`, or `Layer.succeed(SessionStore, SessionStore.of({...}))`.
 *
 * @since 0.1.0
 * @category store
 */
export class SessionStore extends Context.Tag("effect-strata/session/SessionStore")<
  SessionStore,
  SessionStoreService
>() {}

/** What a server-side store's cookie carries: 32 random bytes as unpadded base64url. @since 0.1.0 @category store */
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** `true` when `value` is a {@link SessionRecord} (the shape a store reads back). @since 0.1.0 @category store */
export const isSessionRecord = (value: unknown): value is SessionRecord => {
  if (typeof value !== "object" || value === null || !("data" in value)) return false;
  const record = value as Record<string, unknown>;
  return (
    Number.isFinite(record.createdAt) &&
    Number.isFinite(record.touchedAt) &&
    (record.userId === undefined || typeof record.userId === "string")
  );
};
