// V8's allocation-site pretenuring turned off by Strata's node server
// (src/server/internal/Pretenuring.ts), once a process, unless node's own flags chose or the app keeps
// it (`allocationSitePretenuring: true`). node:v8's `setFlagsFromString` is mocked: the calls
// are recorded, and the test process's V8 is left as it is. Every test loads Strata's modules
// afresh, so that each starts with pretenuring not yet turned off.
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const setFlagsFromString = vi.hoisted(() => vi.fn());
vi.mock("node:v8", async (importOriginal) => ({
  ...(await importOriginal<typeof import("node:v8")>()),
  setFlagsFromString,
}));

const OFF = "--no-allocation-site-pretenuring";

const execArgv = process.execArgv;
beforeEach(() => {
  vi.resetModules();
  setFlagsFromString.mockClear();
});
afterEach(() => {
  process.execArgv = execArgv;
});

/** Fresh copies of Strata's modules (their "done once" state anew), loaded on demand. */
const fresh = {
  Pretenuring: () => import("../../src/server/internal/Pretenuring.js"),
  NodeServer: () => import("../../src/server/internal/NodeServer.js"),
  strata: () => import("../../src/index.js"),
  effectFace: () => import("../../src/effect/index.js"),
};

describe("disablePretenuring", () => {
  it("turns allocation-site pretenuring off once, however often it is asked", async () => {
    const Pretenuring = await fresh.Pretenuring();
    Pretenuring.disablePretenuring();
    Pretenuring.disablePretenuring();
    expect(setFlagsFromString.mock.calls).toEqual([[OFF]]);
  });

  it.each([
    OFF,
    "--allocation-site-pretenuring",
    "--allocation_site_pretenuring",
    "--no-allocation_site_pretenuring",
  ])("leaves V8 alone when node was started with %s", async (flag) => {
    process.execArgv = [...execArgv, flag];
    const Pretenuring = await fresh.Pretenuring();
    Pretenuring.disablePretenuring();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});

describe("Strata's node server", () => {
  it("turns pretenuring off when it starts, unless allocationSitePretenuring: true", async () => {
    const NodeServer = await fresh.NodeServer();
    const start = (allocationSitePretenuring?: boolean) =>
      Effect.runPromise(
        Effect.scoped(
          Effect.asVoid(NodeServer.make({ port: 0, host: "127.0.0.1", allocationSitePretenuring })),
        ),
      );
    await start(true);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    await start(undefined);
    await start(false);
    expect(setFlagsFromString.mock.calls).toEqual([[OFF]]);
  });

  it("StrataServer.layerNode passes allocationSitePretenuring on", async () => {
    const strata = await fresh.effectFace();
    const start = (allocationSitePretenuring?: boolean) =>
      Effect.runPromise(
        Effect.scoped(
          Layer.build(
            strata.StrataServer.layerNode({
              port: 0,
              host: "127.0.0.1",
              allocationSitePretenuring,
            }),
          ),
        ),
      );
    await start(true);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    await start(undefined);
    expect(setFlagsFromString.mock.calls).toEqual([[OFF]]);
  });

  it("StrataApp.listen passes the app's allocationSitePretenuring on", async () => {
    const strata = await fresh.strata();
    class AppModule {}
    strata.Module({})(AppModule);
    const listenAndClose = async (allocationSitePretenuring?: boolean) => {
      const app = new strata.StrataApp(AppModule, {
        allocationSitePretenuring,
        shutdown: { signals: false },
      });
      await app.listen(0, "127.0.0.1");
      await app.close();
    };
    await listenAndClose(true);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    await listenAndClose(undefined);
    expect(setFlagsFromString.mock.calls).toEqual([[OFF]]);
  });
});
