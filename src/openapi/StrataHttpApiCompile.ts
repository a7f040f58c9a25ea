import { HttpApiDecodeError } from "@effect/platform/HttpApiError";
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpApiSchema from "@effect/platform/HttpApiSchema";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as FiberRef from "effect/FiberRef";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
import { type DecodeStep, decodeSteps } from "./StrataHttpApiDecode.js";
import type { Item } from "./StrataHttpApiHandlers.js";
import { singleSuccess, successResponder } from "./StrataHttpApiSuccess.js";

type AnyEffect = Effect.Effect<unknown, unknown, unknown>;

/** Adds `services` under the request's context (its own entries win), for the rest of the fiber. */
export const addServices = (services: Context.Context<never>) =>
  FiberRef.update(FiberRef.currentContext, (input) => Context.merge(services, input));

/** `true` when {@link compile} reproduces the stock route exactly for this item. */
export const compilable = (item: Item, group: HttpApiGroup.HttpApiGroup.AnyWithProps): boolean =>
  !item.withFullRequest &&
  group.middlewares.size === 0 &&
  item.endpoint.middlewares.size === 0 &&
  (item.endpoint.payloadSchema._tag === "None" ||
    HttpApiSchema.getMultipartStream(item.endpoint.payloadSchema.value.ast) === undefined) &&
  singleSuccess(item.endpoint) !== undefined;

/** A compiled handler: the group's services, and its steps without the one that adds them. */
export interface Compiled {
  readonly services: Context.Context<never>;
  readonly steps: AnyEffect;
}

/**
 * The compiled handlers, by the Effect their route runs: `addHttpApi` rebuilds one with the
 * API's services added to the group's (the API's win, as with the two stock merges), so that a
 * request adds both in one step, and tells the fast path so that it adds them itself.
 */
export const compiledHandlers = new WeakMap<object, Compiled>();

/** The route of one handled endpoint: the stock route's steps, with the Schemas compiled once. */
export const compile = (
  item: Item,
  services: Context.Context<never>,
): HttpRouter.Route<unknown, unknown> => {
  const endpoint = item.endpoint;
  const steps = decodeSteps(endpoint);
  const success = singleSuccess(endpoint) as Schema.Schema<unknown, unknown>;
  const encodeSuccess = Schema.encode(success);
  const respond = successResponder(success);
  const answer = (value: unknown) =>
    HttpServerResponse.isServerResponse(value)
      ? Effect.succeed(value)
      : Effect.flatMap(encodeSuccess(value), respond);
  // The decoded members one step each, then the handler and its encoded success.
  const requestSteps = Effect.withFiberRuntime<unknown, unknown, unknown>((fiber) => {
    const context = fiber.currentContext;
    const httpRequest = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest);
    const request: Record<string, unknown> = { request: httpRequest };
    let index = 0;
    const next = (): AnyEffect => {
      if (index === steps.length) return Effect.flatMap(item.handler(request), answer);
      const step = steps[index++] as DecodeStep;
      return Effect.flatMap(step.decode(httpRequest, context), (value) => {
        request[step.key] = value;
        return next();
      });
    };
    return next();
  });
  const decodedSteps = Effect.catchIf(
    requestSteps,
    ParseResult.isParseError,
    HttpApiDecodeError.refailParseError,
  );
  const run = Effect.zipRight(addServices(services), decodedSteps);
  compiledHandlers.set(run, { services, steps: decodedSteps });
  return HttpRouter.makeRoute(
    endpoint.method,
    endpoint.path,
    run as Effect.Effect<HttpServerResponse.HttpServerResponse>,
    { uninterruptible: item.uninterruptible },
  );
};
