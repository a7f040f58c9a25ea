import { afterAll, afterEach, beforeAll } from "vitest";
import { type RootModule, StrataApp, type StrataAppOptions } from "../../src/index.js";

/** An app listening on a free port for the whole test file. */
export const listeningApp = (module: RootModule, options?: StrataAppOptions): StrataApp => {
  const app = new StrataApp(module, options);
  beforeAll(() => app.listen(0));
  afterAll(() => app.close());
  return app;
};

/** Starts apps inside tests and closes every one of them after each test. */
export const appsClosedAfterEach = () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  const track = (module: Function): StrataApp => {
    const app = new StrataApp(module as RootModule);
    apps.push(app);
    return app;
  };
  return {
    /** A new app, not started yet. */
    track,
    /** Builds the providers only. */
    init: (module: Function) => track(module).init(),
    /** Builds everything and listens on a free port. */
    listen: async (module: Function) => {
      const app = track(module);
      await app.listen(0);
      return app;
    },
  };
};
