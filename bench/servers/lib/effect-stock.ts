// The bench package's own copy of effect / @effect/platform (subpath imports).

import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type { EffectModules } from "./effect-routes.js";

export const modules: EffectModules = {
  Context,
  Effect,
  Layer,
  HttpLayerRouter,
  json: (body, status) => HttpServerResponse.unsafeJson(body, { status }),
};
