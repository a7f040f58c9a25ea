// The scheduler of request fibers (src/server/internal/RequestScheduler.ts): one runner for every
// request fiber, in place of Effect's default scheduler (a runner per fiber); an app's own
// scheduler kept; I/O still served while a request yields in a loop; the yield policy a route
// or the server sets holds. Over real HTTP.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpServer from "@effect/platform/HttpServer";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import * as FiberRef from "effect/FiberRef";
import * as Layer from "effect/Layer";
import * as Runtime from "effect/Runtime";
import * as Scheduler from "effect/Scheduler";
import { StrataServer } from "../../src/effect/index.js";
import { jsonResponse } from "../../src/index.js";
import type { FiberRuntimeClass } from "../../src/server/internal/RequestFibers.js";
import { keepsRefsInField, requestScheduler } from "../../src/server/internal/RequestScheduler.js";
import { baseUrlOf } from "../support/baseUrl.js";

/** An app's own scheduler: Effect's scheduling, a distinct instance. */
const appScheduler = new Scheduler.MixedScheduler(2048);

/** Answers which scheduler the handler's fiber, and a fiber it forks, run on. */
const schedulerRoute = HttpLayerRouter.add(
  "GET",
  "/scheduler",
  Effect.gen(function* () {
    const name = (scheduler: Scheduler.Scheduler) =>
      scheduler === requestScheduler
        ? "request"
        : scheduler === appScheduler
          ? "app"
          : scheduler === Scheduler.defaultScheduler
            ? "default"
            : "other";
    const own = yield* FiberRef.get(FiberRef.currentScheduler);
    const forked = yield* Effect.fork(FiberRef.get(FiberRef.currentScheduler));
    return jsonResponse({ handler: name(own), forked: name(yield* forked) });
  }),
);

/** `routes` on the fast path, or (`generic`) through the stock dispatch. */
const dispatched = <E, R>(routes: Layer.Layer<never, E, R>, generic: boolean) =>
  generic
    ? Layer.merge(
        routes,
        HttpLayerRouter.use((router) => router.addGlobalMiddleware((app) => app)),
      )
    : routes;

/** Serves the scheduler route and reads its answer once. */
const schedulerSeen = <E>(served: Layer.Layer<never, E, HttpServer.HttpServer>) =>
  Effect.gen(function* () {
    const base = yield* baseUrlOf(
      served.pipe(Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" }))),
    );
    return yield* Effect.promise(() =>
      fetch(`${base}/scheduler`).then((response) => response.json()),
    );
  });

const paths = [
  ["the fast path", false],
  ["the stock dispatch", true],
] as const;

/**
 * A route that runs a loop of ~150 steps (`around` may set its yield policy) and answers whether
 * a microtask queued before it ran meanwhile: whether the fiber yielded within the loop.
 */
const yieldRoute = (around: (loop: Effect.Effect<void>) => Effect.Effect<void> = (loop) => loop) =>
  HttpLayerRouter.add(
    "GET",
    "/yields",
    Effect.gen(function* () {
      let interleaved = false;
      yield* Effect.sync(() =>
        queueMicrotask(() => {
          interleaved = true;
        }),
      );
      yield* around(
        Effect.forEach(Array.from({ length: 50 }), () => Effect.void, { discard: true }),
      );
      return jsonResponse({ interleaved });
    }),
  );

/** Serves `served` and reads `/yields` once. */
const yieldsSeen = <E>(served: Layer.Layer<never, E, HttpServer.HttpServer>) =>
  Effect.gen(function* () {
    const base = yield* baseUrlOf(
      served.pipe(Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" }))),
    );
    const response = yield* Effect.promise(() => fetch(`${base}/yields`));
    return { status: response.status, body: yield* Effect.promise(() => response.json()) };
  });

describe("request fibers' scheduler", () => {
  it.scopedLive.each(paths)(
    "on %s, a route's loop of ~150 steps runs without yielding (Effect's default: 2,048)",
    ([, generic]) =>
      Effect.gen(function* () {
        const seen = yield* yieldsSeen(StrataServer.serve(dispatched(yieldRoute(), generic)));
        expect(seen).toEqual({ status: 200, body: { interleaved: false } });
      }),
  );

  it.scopedLive.each(paths)(
    "on %s, a route that sets Effect.withMaxOpsBeforeYield yields as often as it asks",
    ([, generic]) =>
      Effect.gen(function* () {
        const route = yieldRoute((loop) => Effect.withMaxOpsBeforeYield(loop, 20));
        const seen = yield* yieldsSeen(StrataServer.serve(dispatched(route, generic)));
        expect(seen).toEqual({ status: 200, body: { interleaved: true } });
      }),
  );

  it.scopedLive.each(paths)(
    "on %s, the server's own FiberRef.currentMaxOpsBeforeYield holds in every request",
    ([, generic]) =>
      Effect.gen(function* () {
        const seen = yield* yieldsSeen(
          StrataServer.serve(dispatched(yieldRoute(), generic)).pipe(
            Layer.provide(
              Layer.scopedDiscard(Effect.locallyScoped(FiberRef.currentMaxOpsBeforeYield, 20)),
            ),
          ),
        );
        expect(seen).toEqual({ status: 200, body: { interleaved: true } });
      }),
  );

  it.scopedLive.each(paths)(
    "on %s, is Strata's request scheduler, inherited by forks",
    ([, generic]) =>
      Effect.gen(function* () {
        const seen = yield* schedulerSeen(StrataServer.serve(dispatched(schedulerRoute, generic)));
        expect(seen).toEqual({ handler: "request", forked: "request" });
      }),
  );

  it.scopedLive.each(paths)(
    "on %s, is the app's own when it set one for the server (Layer.setScheduler)",
    ([, generic]) =>
      Effect.gen(function* () {
        const seen = yield* schedulerSeen(
          StrataServer.serve(dispatched(schedulerRoute, generic)).pipe(
            Layer.provide(Layer.setScheduler(appScheduler)),
          ),
        );
        expect(seen).toEqual({ handler: "app", forked: "app" });
      }),
  );

  it.scopedLive(
    "is the app's own when the server's Layer is built under Effect.withScheduler",
    () =>
      Effect.gen(function* () {
        const seen = yield* Effect.withScheduler(
          schedulerSeen(StrataServer.serve(schedulerRoute)),
          appScheduler,
        );
        expect(seen).toEqual({ handler: "app", forked: "app" });
      }),
  );

  it("takes its shortcut only for fibers seen at startup to keep their refs where it reads them", () => {
    const FiberRuntime = Effect.runFork(Effect.void).constructor as FiberRuntimeClass;
    expect(
      keepsRefsInField((refs, effect) => {
        const fiber = new FiberRuntime(FiberId.unsafeMake(), refs, Runtime.defaultRuntimeFlags);
        fiber.start(effect);
        return fiber;
      }),
    ).toBe(true);
    // Fibers whose refs are a fork of those given (Runtime.runFork), or no fiber at all.
    expect(
      keepsRefsInField((refs, effect) =>
        Runtime.runFork(
          Runtime.make({
            context: Context.empty(),
            fiberRefs: refs,
            runtimeFlags: Runtime.defaultRuntimeFlags,
          }),
          effect,
        ),
      ),
    ).toBe(false);
    expect(
      keepsRefsInField(() => {
        throw new Error("no fiber class");
      }),
    ).toBe(false);
  });

  it("runs the tasks of every fiber on one queue, in priority order across fibers", async () => {
    const first = Effect.runFork(Effect.never);
    const second = Effect.runFork(Effect.never);
    const ran: Array<string> = [];
    await new Promise<void>((resolve) => {
      requestScheduler.scheduleTask(() => ran.push("first fiber, priority 1"), 1, first);
      requestScheduler.scheduleTask(() => ran.push("second fiber, priority 0"), 0, second);
      requestScheduler.scheduleTask(() => resolve(), 2, first);
    });
    // A runner per fiber would run the first fiber's task first: its drain was asked first.
    expect(ran).toEqual(["second fiber, priority 0", "first fiber, priority 1"]);
    await Effect.runPromise(Effect.zip(Fiber.interrupt(first), Fiber.interrupt(second)));
  });

  it.scopedLive(
    "a route yielding 50,000 times answers, and a request on another connection is answered meanwhile",
    () =>
      Effect.gen(function* () {
        const total = 50_000;
        let yields = 0;
        let spinning!: () => void;
        const started = new Promise<void>((resolve) => {
          spinning = resolve;
        });
        const routes = Layer.mergeAll(
          HttpLayerRouter.add(
            "GET",
            "/spin",
            Effect.gen(function* () {
              spinning();
              for (let i = 0; i < total; i++) {
                yield* Effect.yieldNow();
                yields++;
              }
              return jsonResponse({ yields });
            }),
          ),
          HttpLayerRouter.add(
            "GET",
            "/quick",
            Effect.sync(() => jsonResponse({ spinYields: yields })),
          ),
        );
        const base = yield* baseUrlOf(
          StrataServer.serve(routes).pipe(
            Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" })),
          ),
        );
        const answered: Array<string> = [];
        const { spin, quick } = yield* Effect.promise(async () => {
          const spin = fetch(`${base}/spin`).then(async (response) => {
            answered.push("spin");
            return { status: response.status, body: await response.json() };
          });
          await started;
          // The first connection is busy: this request goes on another one.
          const quick = await fetch(`${base}/quick`).then(async (response) => {
            answered.push("quick");
            return { status: response.status, body: await response.json() };
          });
          return { spin: await spin, quick };
        });
        expect(answered).toEqual(["quick", "spin"]);
        expect(quick.status).toBe(200);
        expect((quick.body as { spinYields: number }).spinYields).toBeLessThan(total);
        expect(spin).toEqual({ status: 200, body: { yields: total } });
      }),
    30_000,
  );
});
