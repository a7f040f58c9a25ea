import * as HttpApp from "@effect/platform/HttpApp";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import type * as Runtime from "effect/Runtime";
import { canonicalRequest } from "./CanonicalRequest.js";
import type { InFlight, RequestListener } from "./InFlight.js";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import type { NodeServerRequest } from "./NodeServerRequest.js";
import { type FiberRuntimeClass, makeRequestFork } from "./RequestFibers.js";

/**
 * Dispatch of any HTTP app (one not served by `StrataServer.serve`, or with platform
 * middleware), through the platform's own `toHandled` (scope, middleware, error handling),
 * exactly as on `NodeHttpServer`.
 */
export const genericDispatch = (
  runtime: Runtime.Runtime<never>,
  app: HttpApp.Default<unknown, never>,
  middleware: HttpMiddleware.HttpMiddleware | undefined,
  inFlight: InFlight,
  fiberClass: FiberRuntimeClass | undefined,
): RequestListener => {
  const handled = HttpApp.toHandled(
    app,
    (request, response) =>
      writeNodeResponse((request as NodeServerRequest).response, request.method, response),
    middleware,
  );
  const fork = makeRequestFork(runtime, runtime.runtimeFlags, fiberClass);
  return (req, res) => {
    inFlight.arrive(req, res);
    const request = canonicalRequest(req, res);
    if (request === undefined) return;
    const fiber = fork(
      runtime.context,
      Effect.provideService(handled, HttpServerRequest.HttpServerRequest, request),
    );
    if (fiber.unsafePoll() === null) inFlight.track(res, fiber);
  };
};
