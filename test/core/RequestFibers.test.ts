import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as RuntimeFlags from "effect/RuntimeFlags";
import { StrataServer } from "../../src/index.js";
import * as Timeout from "../../src/middleware/Timeout.js";
import { baseUrlOf } from "../support/baseUrl.js";

/** Answers which runtime flags the handler's fiber runs with. */
const flagsRoute = HttpLayerRouter.add(
  "GET",
  "/flags",
  Effect.map(Effect.getRuntimeFlags, (flags) =>
    HttpServerResponse.unsafeJson({
      metrics: RuntimeFlags.runtimeMetrics(flags),
      interruptible: RuntimeFlags.interruptible(flags),
    }),
  ),
);

const flagsOn = (options: StrataServer.ServeOptions) =>
  Effect.gen(function* () {
    const base = yield* baseUrlOf(
      StrataServer.serve(flagsRoute, options).pipe(
        Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" })),
      ),
    );
    return yield* Effect.promise(() => fetch(`${base}/flags`).then((response) => response.json()));
  });

describe("request fibers", () => {
  it.scopedLive("run without Effect's fiber metrics by default", () =>
    Effect.gen(function* () {
      expect(yield* flagsOn({})).toEqual({ metrics: false, interruptible: true });
    }),
  );

  it.scopedLive("feed fiber metrics with fiberMetrics: true", () =>
    Effect.gen(function* () {
      expect(yield* flagsOn({ fiberMetrics: true })).toEqual({
        metrics: true,
        interruptible: true,
      });
    }),
  );

  it.scopedLive("hand their metrics setting to the fiber a timeout runs the handler on", () =>
    Effect.gen(function* () {
      for (const fiberMetrics of [false, true]) {
        const middleware = yield* Timeout.make({ timeout: 1_000 });
        expect(yield* flagsOn({ fiberMetrics, middleware })).toEqual({
          metrics: fiberMetrics,
          interruptible: true,
        });
      }
    }),
  );
});
