import type * as HttpApp from "@effect/platform/HttpApp";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import { causeToResponse, withErrorResponses } from "../http/ErrorResponse.js";
import {
  appliedLogged,
  type Change,
  type Finish,
  finishers,
  outermostForms,
} from "../server/internal/FastPath.js";
import { prefixMatcher, requestPath } from "./RequestInfo.js";

/**
 * An app as middleware sees it: an Effect producing the response, whatever it fails with or
 * needs (Strata's server has mapped its failures to responses already).
 *
 * @since 0.1.0
 * @category middleware
 */
export type App = HttpApp.Default<unknown, unknown>;

/**
 * An `HttpMiddleware` from a plain function of the app, without spelling out its generic
 * signature.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (f: (app: App) => App): HttpMiddleware.HttpMiddleware =>
  f as unknown as HttpMiddleware.HttpMiddleware;

/** The middleware made by {@link makeInfallible}. */
const infallible = new WeakSet<HttpMiddleware.HttpMiddleware>();

/**
 * Like {@link make}, for middleware that never fails on its own: whatever the result fails
 * with is a failure of `app`. {@link compose} then maps no failures around it (one step less
 * on every request). Strata's built-in CORS, security headers, rate limit and timeout are so.
 *
 * @since 0.1.0
 * @category middleware
 */
export const makeInfallible = (f: (app: App) => App): HttpMiddleware.HttpMiddleware => {
  const middleware = make(f);
  infallible.add(middleware);
  return middleware;
};

/**
 * Whether `middleware` was made by {@link makeInfallible} (or composed of such middleware).
 *
 * @since 0.1.0
 * @category middleware
 */
export const isInfallible = (middleware: HttpMiddleware.HttpMiddleware): boolean =>
  infallible.has(middleware);

/**
 * Runs middleware in order, the first listed outermost. What each one answers, failures
 * included, reaches the next (outer) one as a response in the standard error shape: a 401 from
 * an authentication middleware still gets its CORS and security headers. The app's failures
 * are answered first, so every middleware sees a response (as under `StrataServer.serve`,
 * which answers them itself). The result never fails: the failures of every middleware not
 * made by {@link makeInfallible} are answered where they happen, and a decorating one's as
 * nesting would. Adjacent {@link decorating} middleware run as one step.
 *
 * @since 0.1.0
 * @category middleware
 */
export const compose = (
  ...middleware: ReadonlyArray<HttpMiddleware.HttpMiddleware>
): HttpMiddleware.HttpMiddleware => {
  const stages: Array<HttpMiddleware.HttpMiddleware> = [];
  for (const next of middleware) {
    const last = stages.at(-1);
    const outer = last === undefined ? undefined : decisions.get(last);
    const inner = decisions.get(next);
    if (outer !== undefined && inner !== undefined) {
      stages[stages.length - 1] = decorated([...outer, ...inner]);
    } else stages.push(next);
  }
  const composed = chain(stages);
  // With only the server outside: a timeout first, or right after the decorating middleware at
  // the front, ends their run (no fiber of its own).
  const front = decisions.get(stages[0]) === undefined ? 0 : 1;
  const finish = stages[front] === undefined ? undefined : finishers.get(stages[front]);
  if (finish !== undefined) {
    const decides = front === 0 ? [] : (decisions.get(stages[0]) ?? []);
    outermostForms.set(composed, chain([decorated(decides, finish), ...stages.slice(front + 1)]));
  }
  return composed;
};

/** `stages` one inside the other, the first outermost, failures answered where they happen. */
const chain = (stages: ReadonlyArray<HttpMiddleware.HttpMiddleware>) =>
  makeInfallible((app) =>
    stages.reduceRight<App>(
      (inner, outer) => (infallible.has(outer) ? outer(inner) : withErrorResponses(outer(inner))),
      withErrorResponses(app),
    ),
  );

/**
 * Runs `f` with the request being served: the same as `Effect.flatMap(HttpServerRequest
 * .HttpServerRequest, f)`, in one step instead of three (middleware runs on every request).
 *
 * @since 0.1.0
 * @category middleware
 */
export const withRequest = <A, E, R>(
  f: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiberRuntime((fiber) =>
    f(Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)),
  );

/**
 * What a {@link decorating} middleware makes of one request: `undefined` leaves the app's
 * response as it is, a function changes it, `{ answer }` answers at once without running the
 * app (the middleware outside still change that answer).
 *
 * @since 0.1.0
 * @category middleware
 */
export type Decoration =
  | undefined
  | ((response: HttpServerResponse.HttpServerResponse) => HttpServerResponse.HttpServerResponse)
  | { readonly answer: HttpServerResponse.HttpServerResponse };

/**
 * How a {@link decorating} middleware decides, from the request: at once, or by an Effect that
 * never fails (a rate-limit store's answer, say).
 *
 * @since 0.1.0
 * @category middleware
 */
export type Decide = (
  request: HttpServerRequest.HttpServerRequest,
) => Decoration | Effect.Effect<Decoration>;

/** The decisions of each decorating middleware, outermost first. */
const decisions = new WeakMap<HttpMiddleware.HttpMiddleware, ReadonlyArray<Decide>>();

/** The answer to a failure of a decision: in the standard shape, changed by those before it. */
const answerFailure = (cause: Cause.Cause<unknown>, changes: ReadonlyArray<Change>) =>
  Effect.flatMap(causeToResponse(cause), (response) => appliedLogged(changes, response));

/** The end of a plain decorated run: the app, its response changed. */
const changedApp =
  (app: App): Finish =>
  (_fiber, _request, changes) =>
    changes.length === 0
      ? app
      : Effect.flatMap(app, (response) => appliedLogged(changes, response));

/**
 * One middleware running `decides` in order, outermost first (one look at the request), then
 * `finish` (by default, the app with its response changed).
 */
const decorated = (
  decides: ReadonlyArray<Decide>,
  finishWith: (app: App) => Finish = changedApp,
): HttpMiddleware.HttpMiddleware => {
  const middleware = makeInfallible((app) => {
    const finish = finishWith(app);
    /** Runs the decisions from `index` on, given the changes decided before it. */
    const decideFrom = (
      fiber: Fiber.RuntimeFiber<unknown, unknown>,
      request: HttpServerRequest.HttpServerRequest,
      changes: Array<Change>,
      index: number,
    ): App => {
      if (index === decides.length) return finish(fiber, request, changes);
      /** Goes on after the decision at `index`. */
      const follow = (decoration: Decoration): App => {
        if (decoration === undefined) return decideFrom(fiber, request, changes, index + 1);
        if (typeof decoration === "function") {
          changes.push(decoration);
          return decideFrom(fiber, request, changes, index + 1);
        }
        return appliedLogged(changes, decoration.answer);
      };
      let decision: ReturnType<Decide>;
      try {
        decision = decides[index](request);
      } catch (defect) {
        // Answered as nesting would: a 500 the middleware outside this one still change.
        return answerFailure(Cause.die(defect), changes);
      }
      return Effect.isEffect(decision)
        ? Effect.matchCauseEffect(decision, {
            onFailure: (cause) => answerFailure(cause, changes),
            onSuccess: follow,
          })
        : follow(decision);
    };
    return Effect.withFiberRuntime((fiber) =>
      decideFrom(
        fiber,
        Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest),
        [],
        0,
      ),
    );
  });
  // A run that ends otherwise (with a timeout) takes no more decorating middleware.
  if (finishWith === changedApp) decisions.set(middleware, decides);
  return middleware;
};

/**
 * Middleware that decides from the request alone what becomes of the app's response: leave
 * it, change it (add headers), or answer instead of the app. CORS, security headers and rate
 * limits are such. It never fails, and adjacent ones in {@link compose} run as one step (one
 * look at the request, one step after the app) instead of one each.
 *
 * @since 0.1.0
 * @category middleware
 */
export const decorating = (decide: Decide): HttpMiddleware.HttpMiddleware => decorated([decide]);

/**
 * Applies `middleware` only to requests whose path is `prefix` or below it (on segment
 * boundaries: `/admin` covers `/admin/users`, not `/administrator`); others skip it.
 *
 * @since 0.1.0
 * @category middleware
 */
export const forPrefix = (
  prefix: string,
  middleware: HttpMiddleware.HttpMiddleware,
): HttpMiddleware.HttpMiddleware => {
  const matches = prefixMatcher(prefix);
  const decides = decisions.get(middleware);
  if (decides !== undefined) {
    return decorated(
      decides.map(
        (decide): Decide =>
          (request) =>
            matches(requestPath(request)) ? decide(request) : undefined,
      ),
    );
  }
  const build = infallible.has(middleware) ? makeInfallible : make;
  return build((app) => {
    const wrapped = middleware(app);
    return withRequest((request) => (matches(requestPath(request)) ? wrapped : app));
  });
};
