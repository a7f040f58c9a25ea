import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import { type BodyLimit, readBody, readBodyAndRaw } from "../http/RequestBody.js";
import type { Step } from "./RouteSteps.js";

const bodyless = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

const hasNoBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  bodyless.has(request.method) &&
  request.headers["content-length"] === undefined &&
  request.headers["transfer-encoding"] === undefined;

/** What the body step reads, from the route's plan. */
export interface BodyOptions {
  readonly bodyLimit: BodyLimit;
  readonly jsonDepthLimit: number;
  /** Keep the body's bytes as `rawBody` too. */
  readonly rawBody: boolean;
}

/** The request's body read (and its bytes kept, with `rawBody`) before `next`. */
export const bodyStep = (plan: BodyOptions, next: Step): Step =>
  plan.rawBody
    ? (execution) =>
        hasNoBody(execution.req)
          ? next(execution)
          : Effect.flatMap(
              readBodyAndRaw(execution.req, plan.bodyLimit, plan.jsonDepthLimit),
              ({ body, raw }) => {
                execution.body = body;
                execution.rawBody = raw;
                return next(execution);
              },
            )
    : (execution) =>
        hasNoBody(execution.req)
          ? next(execution)
          : Effect.flatMap(readBody(execution.req, plan.bodyLimit, plan.jsonDepthLimit), (body) => {
              execution.body = body;
              return next(execution);
            });
