/**
 * `startDevIdentityProvider`: the development identity provider for code that does not use
 * Effect (the demo's `main.ts`).
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Scope from "effect/Scope";
import {
  type DevIdentityProviderOptions,
  type DevIdentityProviderService,
  make,
} from "./DevIdentityProvider.js";

/**
 * A running development identity provider, with a way to stop it.
 *
 * @since 0.1.0
 * @category facade
 */
export interface RunningDevIdentityProvider extends DevIdentityProviderService {
  /** Stops the server (open connections are closed). */
  readonly close: () => Promise<void>;
}

/**
 * Starts the development identity provider (on a free loopback port unless `port` is
 * given). Rejects with a `DevIdentityProviderError` when `NODE_ENV=production`, when the host
 * is not loopback, or when the port is taken.
 *
 * @example
 * const idp = await startDevIdentityProvider({
 *   clients: {
 *     github: {
 *       clientId: "dev",
 *       clientSecret: "dev-secret",
 *       redirectUri: "http://localhost:3000/auth/github/callback",
 *     },
 *   },
 * });
 * idp.endpoints("github"); // { authorization, token, api }
 *
 * @since 0.1.0
 * @category facade
 */
export const startDevIdentityProvider = async (
  options: DevIdentityProviderOptions,
): Promise<RunningDevIdentityProvider> => {
  const scope = Effect.runSync(Scope.make());
  const exit = await Effect.runPromiseExit(Scope.extend(make(options), scope));
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit));
    throw Cause.squash(exit.cause);
  }
  return {
    ...exit.value,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  };
};
