/**
 * The session service of tests: one signed-in state for every request (no cookie, no store),
 * so that a test runs requests as a user without signing in.
 */
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { UnauthorizedError } from "../../http/HttpError.js";
import type { SessionApi } from "../SessionApi.js";
import { defaultUserId } from "../SessionOptions.js";

/** Signed in as `data` (signed out without it) until `create` or `destroy` says otherwise. */
export const makeTestSession = <A>(data?: A): SessionApi<A> => {
  let signedIn: Option.Option<A> = data === undefined ? Option.none() : Option.some(data);
  const current = Effect.sync(() => signedIn);
  return {
    current,
    require: Effect.flatMap(current, (found) =>
      Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(new UnauthorizedError()),
    ),
    create: (next) =>
      Effect.sync(() => {
        signedIn = Option.some(next);
      }),
    rotate: Effect.flatMap(current, (found) =>
      Option.isSome(found) ? Effect.void : Effect.fail(new UnauthorizedError()),
    ),
    destroy: Effect.sync(() => {
      signedIn = Option.none();
    }),
    destroyAllFor: (userId) =>
      Effect.sync(() => {
        if (Option.isSome(signedIn) && defaultUserId(signedIn.value) === userId) {
          signedIn = Option.none();
        }
      }),
  };
};
