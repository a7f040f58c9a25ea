/**
 * When a session expires (its idle timeout from its last write-back, its absolute lifetime
 * from sign-in, whichever comes first), and the cookie write that lasts as long.
 *
 * @since 0.1.0
 */
import type { CookieWrite } from "../SessionCookie.js";
import type { SessionConfig } from "../SessionOptions.js";
import type { SessionRecord } from "../SessionStore.js";

/** The lifetime of the sessions of `config`. */
export interface SessionLifetime {
  /** When `record` expires (epoch milliseconds). */
  readonly expiresAt: (record: SessionRecord) => number;
  /** The cookie of `record` under `value`, its `Max-Age` its time left at `now`. */
  readonly set: (value: string, record: SessionRecord, now: number) => CookieWrite;
}

/** The lifetime of the sessions of `config`. */
export const sessionLifetime = (
  config: Pick<SessionConfig<unknown>, "idleMillis" | "absoluteMillis">,
): SessionLifetime => {
  const { idleMillis, absoluteMillis } = config;
  const expiresAt = (record: SessionRecord) =>
    Math.min(record.touchedAt + idleMillis, record.createdAt + absoluteMillis);
  return {
    expiresAt,
    set: (value, record, now) => ({
      _tag: "Set",
      value,
      maxAge: Math.max(0, Math.floor((expiresAt(record) - now) / 1_000)),
    }),
  };
};
