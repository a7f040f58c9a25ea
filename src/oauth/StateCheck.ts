/**
 * The state check of a callback against its transaction, as plain functions: used by the
 * OAuth pipeline, the built-in callback route and `OAuthService.validateState`.
 *
 * @since 0.1.0
 */
import { createHash, timingSafeEqual } from "node:crypto";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { InvalidState } from "./OAuthError.js";
import type { OAuthProviderService } from "./OAuthProvider.js";
import type { OAuthTransaction } from "./OAuthTransaction.js";

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

/**
 * `true` when `received` and `stored` are the same non-empty string. The comparison is
 * constant-time (SHA-256 digests compared with `timingSafeEqual`, so neither the content nor
 * the length leaks); anything that is not a non-empty string (an array from a repeated query
 * parameter, `undefined`, `""`) is `false`.
 *
 * @since 0.1.0
 * @category state
 */
export const validateState = (received: unknown, stored: unknown): boolean =>
  typeof received === "string" &&
  typeof stored === "string" &&
  received !== "" &&
  stored !== "" &&
  timingSafeEqual(digest(received), digest(stored));

/**
 * The query parameters of a callback as they arrived: a repeated parameter is an array.
 *
 * @since 0.1.0
 * @category state
 */
export interface CallbackParams {
  readonly state?: unknown;
  readonly code?: unknown;
  readonly iss?: unknown;
  readonly error?: unknown;
}

/**
 * Checks a callback against its transaction (SECURITY.md 2-7): there is one, it is not
 * expired, it was minted for this provider, `state` is one non-empty string equal to the
 * stored one (constant-time), and an `iss`, when present (or required by the provider),
 * names the provider.
 *
 * @since 0.1.0
 * @category state
 */
export const checkCallbackState = (
  provider: OAuthProviderService,
  params: CallbackParams,
  transaction: Option.Option<OAuthTransaction>,
  now: number,
): Either.Either<OAuthTransaction, InvalidState> => {
  const refuse = (reason: InvalidState["reason"]) =>
    Either.left(new InvalidState({ provider: provider.name, reason }));
  if (Option.isNone(transaction)) return refuse("missing_transaction");
  const tx = transaction.value;
  if (!(tx.expiry > now)) return refuse("expired");
  if (tx.provider !== provider.name) return refuse("wrong_provider");
  if (typeof params.state !== "string" || params.state === "") return refuse("missing_state");
  if (!validateState(params.state, tx.state)) return refuse("state_mismatch");
  if (params.iss !== undefined) {
    if (typeof params.iss !== "string" || !provider.acceptsIssuer(params.iss)) {
      return refuse("issuer_mismatch");
    }
  } else if (provider.requiresIssuer === true) {
    return refuse("issuer_mismatch");
  }
  return Either.right(tx);
};
