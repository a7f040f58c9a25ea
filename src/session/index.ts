/**
 * `effect-strata/session`: signed in, stays signed in, signs out. One `Session` service on the Effect
 * face; `SessionModule.forRoot`, `SessionService`, `SessionGuard` and `@CurrentUser()` on the
 * classic face. Session data is typed by a Schema the app gives; sessions live in a sealed
 * cookie (default), in Redis, or in memory (tests).
 *
 * @since 0.1.0
 */
import "../di/reflectMetadata.js";

/**
 * A `SessionStore` that keeps the session in the cookie itself, sealed (encrypted and signed): no
 * server-side storage.
 *
 * @since 0.1.0
 */
export * as CookieSessionStore from "./CookieSessionStore.js";
export {
  CurrentUser,
  type CurrentUserOptions,
  CurrentUserPipe,
  OptionalCurrentUserPipe,
} from "./CurrentUser.js";
/**
 * The in-process `SessionStore`: sessions in memory, for one instance (development and tests).
 *
 * @since 0.1.0
 */
export * as MemorySessionStore from "./MemorySessionStore.js";
/**
 * A `SessionStore` in Redis, shared by every instance of a scaled-out app.
 *
 * @since 0.1.0
 */
export * as RedisSessionStore from "./RedisSessionStore.js";
export { Session, type SessionApi, type SessionTag } from "./Session.js";
export { DEFAULT_COOKIE_NAME } from "./SessionCookie.js";
export { SessionGuard } from "./SessionGuard.js";
export { SessionModule, type SessionModuleOptions } from "./SessionModule.js";
export {
  DEFAULT_ABSOLUTE_TIMEOUT,
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_TOUCH_INTERVAL,
  type SessionOptions,
} from "./SessionOptions.js";
export { SessionService } from "./SessionService.js";
export {
  type SessionRecord,
  SessionStore,
  SessionStoreError,
  type SessionStoreService,
} from "./SessionStore.js";
export { SessionTooLarge } from "./SessionTooLarge.js";
