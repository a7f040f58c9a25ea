import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as FiberRef from "effect/FiberRef";
import * as Layer from "effect/Layer";
import * as RuntimeFlags from "effect/RuntimeFlags";
import * as Supervisor from "effect/Supervisor";
import { StrataServer } from "../../src/effect/index.js";
import * as Timeout from "../../src/middleware/Timeout.js";
import { makeRequestFork, requestFiberClass } from "../../src/server/internal/RequestFibers.js";
import { baseUrlOf } from "../support/baseUrl.js";

/** Effect's fiber class, as the server finds it at startup. */
const fiberClass = Effect.runSync(requestFiberClass);

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

/** A ref the app sets around its server, and each request changes for itself. */
const label = FiberRef.unsafeMake("default");
/** A ref whose fork gives every fiber a list of its own. */
const visits = FiberRef.unsafeMake<Array<string>>([], { fork: () => [] });

/** Answers what the handler's fiber sees in both refs, then changes them. */
const refsRoute = HttpLayerRouter.add(
  "GET",
  "/refs",
  Effect.gen(function* () {
    const seen = { label: yield* FiberRef.get(label), visits: [...(yield* FiberRef.get(visits))] };
    yield* FiberRef.set(label, "changed by a request");
    (yield* FiberRef.get(visits)).push("a request");
    return HttpServerResponse.unsafeJson(seen);
  }),
);

/** The refs route served with both refs set around the server (`generic`: the stock dispatch). */
const refsServer = (generic: boolean) =>
  StrataServer.serve(
    generic
      ? Layer.merge(
          refsRoute,
          HttpLayerRouter.use((router) => router.addGlobalMiddleware((app) => app)),
        )
      : refsRoute,
  ).pipe(
    Layer.locally(label, "set around the server"),
    Layer.locally(visits, ["the app's"]),
    Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" })),
  );

describe("request fibers", () => {
  it.scopedLive.each<readonly [string, boolean]>([
    ["the fast path", false],
    ["the stock dispatch", true],
  ])("on %s, start from the app's fiber refs, forked anew for each request", ([, generic]) =>
    Effect.gen(function* () {
      const base = yield* baseUrlOf(refsServer(generic));
      for (let i = 0; i < 3; i++) {
        const seen = yield* Effect.promise(() =>
          fetch(`${base}/refs`).then((response) => response.json()),
        );
        expect(seen).toEqual({ label: "set around the server", visits: [] });
      }
    }),
  );

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

  it("run a fork function of the app's own for every request fiber, as Effect's fork does", () => {
    let forks = 0;
    const counted = FiberRef.unsafeMake(0, {
      fork: (value) => {
        forks++;
        return value;
      },
    });
    const runtime = Effect.runSync(Effect.locally(Effect.runtime<never>(), counted, 1));
    const fork = makeRequestFork(runtime, runtime.runtimeFlags, fiberClass);
    forks = 0;
    for (let i = 0; i < 3; i++) fork(Context.empty(), Effect.void);
    expect(forks).toBe(3);
  });

  it.effect("are real fibers, but not among Effect's root fibers (`Fiber.roots`)", () =>
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>();
      const fork = makeRequestFork(runtime, runtime.runtimeFlags, fiberClass);
      const waiting = fork(Context.empty(), Effect.never);
      const done = fork(Context.empty(), Effect.void);
      const roots = yield* Fiber.roots;
      expect(roots).not.toContain(waiting);
      expect(roots).not.toContain(done);
      expect(yield* Fiber.await(done)).toEqual(Exit.void);
      expect(Exit.isInterrupted(yield* Fiber.interrupt(waiting))).toBe(true);
    }),
  );

  it.effect("start through Effect's own fork when the app has a supervisor, which sees them", () =>
    Effect.gen(function* () {
      const supervisor = yield* Supervisor.track;
      const runtime = yield* Effect.supervised(Effect.runtime<never>(), supervisor);
      const fork = makeRequestFork(runtime, runtime.runtimeFlags, fiberClass);
      const waiting = fork(Context.empty(), Effect.never);
      expect(yield* supervisor.value).toContain(waiting);
      yield* Fiber.interrupt(waiting);
    }),
  );

  it("find Effect's fiber class at startup, checked by starting a fiber with it", () => {
    expect(fiberClass).toBe(Effect.runFork(Effect.void).constructor);
  });

  it.effect("start through the public Runtime.runFork without Effect's fiber class", () =>
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>();
      const fork = makeRequestFork(runtime, runtime.runtimeFlags, undefined);
      const waiting = fork(Context.empty(), Effect.never);
      expect(yield* Fiber.roots).toContain(waiting);
      expect(yield* Fiber.await(fork(Context.empty(), Effect.void))).toEqual(Exit.void);
      yield* Fiber.interrupt(waiting);
    }),
  );
});
