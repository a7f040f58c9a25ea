/**
 * Why the development identity provider did not start.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data";

/**
 * A start refused or failed: `production` (`NODE_ENV=production`), `non_loopback` (a host
 * that is not a loopback address), `listen` (the port could not be bound) or `key` (the
 * signing key could not be made).
 *
 * @since 0.1.0
 * @category errors
 */
export class DevIdentityProviderError extends Data.TaggedError("DevIdentityProviderError")<{
  readonly reason: "production" | "non_loopback" | "listen" | "key";
  readonly message: string;
  readonly cause?: unknown;
}> {}
