import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import * as TrustProxy from "../TrustProxy.js";
import { addressKey } from "./addressKey.js";

/** The default IPv6 prefix length clients are counted by. @since 0.1.0 @category middleware */
export const DEFAULT_IPV6_SUBNET = 64;

/** How a client is told apart: its address, as the rate limiter and the OAuth routes count it. */
export interface ClientKeyOptions {
  readonly trustProxy?: TrustProxy.TrustProxy;
  readonly ipv6Subnet?: number | false;
}

/**
 * The key a request's client is counted under (its address: the socket's, or the
 * `X-Forwarded-For` entry `trustProxy` names; an IPv6 client per `ipv6Subnet` network), built
 * once at startup. Fails with what is wrong: `trustProxy: true` (any client could pick its own
 * key) or a prefix length that is not one.
 */
export const clientKeyOf = (
  options: ClientKeyOptions,
): Effect.Effect<(request: HttpServerRequest.HttpServerRequest) => string, string> =>
  Effect.gen(function* () {
    if (options.trustProxy === true) {
      return yield* Effect.fail(
        'trustProxy: true believes the leftmost X-Forwarded-For entry, which any client writes, so every client could pick its own key. Give the number of proxies in front of the app (trustProxy: 1) or their addresses (trustProxy: ["10.0.0.0/8"])',
      );
    }
    const subnet = options.ipv6Subnet ?? DEFAULT_IPV6_SUBNET;
    if (subnet !== false && !(Number.isInteger(subnet) && subnet >= 1 && subnet <= 128)) {
      return yield* Effect.fail(
        `ipv6Subnet (${subnet}) must be a prefix length from 1 to 128, or false`,
      );
    }
    const trust = yield* Effect.mapError(TrustProxy.make(options.trustProxy), (e) => e.message);
    return (request) => addressKey(TrustProxy.clientAddress(request, trust), subnet);
  });
