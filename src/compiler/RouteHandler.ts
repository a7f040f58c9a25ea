import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type * as Effect from "effect/Effect";
import { fixedEnhancers } from "../pipeline/internal/enhancers.js";
import { uploadRoute } from "../pipeline/internal/uploadRoute.js";
import { bodyStep } from "./BodyStep.js";
import { handlerCall } from "./HandlerCall.js";
import { routeEntry } from "./RouteEntry.js";
import type { RoutePlan, RouteServices } from "./RoutePlan.js";
import { responder } from "./RouteResponse.js";
import { routeShape } from "./RouteShape.js";
import {
  callStep,
  enhancerStep,
  filterStep,
  guardStep,
  interceptedCallStep,
  uploadStep,
} from "./RouteSteps.js";

/**
 * The per-request Effect of one classic route, assembled at startup from the steps its
 * decorators ask for, each an Effect combinator around the next:
 *
 * filters ( body ( guards ( upload ( interceptors ( pipes + handler ) ) ) ) )
 *
 * A step that is not configured is left out entirely, so a route without guards,
 * interceptors, filters or uploads runs exactly the bare path: read what the parameters ask
 * for, call the handler, turn its result into a response, with no Effect allocated for a
 * synchronous handler beyond the response itself.
 */
export const routeHandler = (
  plan: RoutePlan,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices> => {
  const upload = uploadRoute(
    plan.enhancers,
    plan.uploadLimits,
    plan.bodyLimit,
    plan.jsonDepthLimit,
    `${plan.target.controller.name}.${String(plan.method)}`,
  );
  const refs = upload.refs;
  const fixed = fixedEnhancers(refs);
  const shape = routeShape(plan.params, refs, upload.spec !== undefined);
  const invoke = handlerCall(plan, shape.arity);
  const respond = responder(plan.spec, plan.sse, shape.takesResponse);
  const core = shape.hasInterceptors
    ? interceptedCallStep(invoke, respond)
    : callStep(invoke, respond);
  const uploaded = shape.isUpload ? uploadStep(upload.receive, core) : core;
  const guarded = shape.hasGuards ? guardStep(uploaded) : uploaded;
  const withBody = shape.readsBody ? bodyStep(plan, guarded) : guarded;
  const filtered = shape.hasFilters ? filterStep(withBody) : withBody;
  const run = fixed !== undefined ? filtered : enhancerStep(refs, filtered);
  return routeEntry(run, shape.dtoType, plan.target, fixed);
};
