/**
 * A session's answer for a request without an Effect step, where it can give one: a sealed
 * cookie or an in-memory session that is valid and not due a write-back. `SessionGuard` lets
 * such a request through synchronously; anything else (no cookie, a cookie that is no session,
 * a write-back, a store that needs I/O) takes the Effect path, which answers and clears.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as DefaultServices from "effect/DefaultServices";
import * as Fiber from "effect/Fiber";
import type * as Option from "effect/Option";
import type { SessionApi } from "../SessionApi.js";

/** The session of `request` at `now` (epoch ms) when known at once, else `undefined`. */
export type ReadNow = (
  request: HttpServerRequest.HttpServerRequest,
  now: number,
) => Option.Option<unknown> | undefined;

const readers = new WeakMap<SessionApi<unknown>, ReadNow>();

/** Records how `session` answers at once (`makeSession` does, for stores with `loadNow`). */
export const recordReadNow = <A>(session: SessionApi<A>, read: ReadNow): void => {
  readers.set(session as unknown as SessionApi<unknown>, read);
};

/** The current time on `fiber`'s clock (a `TestClock` in tests). */
export const fiberNow = (fiber: Fiber.RuntimeFiber<unknown, unknown>): number =>
  Context.get(
    fiber.getFiberRef(DefaultServices.currentServices),
    Clock.Clock,
  ).unsafeCurrentTimeMillis();

/**
 * `true` when `session` knows at once that `request` has a valid session (recorded for the
 * request, as `current` would); `false` when that takes the Effect path. Called on the
 * request's fiber (a guard's `canActivate`): off it, always `false`.
 */
export const hasSessionNow = <A>(
  session: SessionApi<A>,
  request: HttpServerRequest.HttpServerRequest | undefined,
): boolean => {
  const read = readers.get(session as unknown as SessionApi<unknown>);
  if (read === undefined || request === undefined) return false;
  const fiber = Fiber.getCurrentFiber();
  if (fiber._tag === "None") return false;
  const data = read(request, fiberNow(fiber.value));
  return data !== undefined && data._tag === "Some";
};
