/** Why there is no Express app to hand out, and what to use instead. */
const NO_EXPRESS_INSTANCE =
  "Strata serves HTTP with its own engine, not Express: there is no Express app to serve from or to add routes to. Use app.getHttpServer() (supertest) or app.listen(port); Express middleware does not run (see docs/coming-from-nestjs.md).";

/** The routes and middleware an Express app was given (`app.get(...)`, `app.use(...)`). */
const expressLayers = (instance: unknown): number => {
  if (typeof instance !== "function" && (typeof instance !== "object" || instance === null)) {
    return 0;
  }
  const app = instance as {
    readonly _router?: { readonly stack?: ReadonlyArray<{ readonly name?: string }> };
    readonly router?: { readonly stack?: ReadonlyArray<{ readonly name?: string }> };
  };
  // Express 4 keeps its router in `_router` (with its own `query` and `expressInit` layers),
  // Express 5 in `router`.
  const stack = app._router?.stack ?? app.router?.stack ?? [];
  return stack.filter((layer) => layer.name !== "query" && layer.name !== "expressInit").length;
};

/**
 * NestJS's `ExpressAdapter`, accepted where NestJS takes it
 * (`NestFactory.create(AppModule, new ExpressAdapter(express()))`,
 * `moduleRef.createNestApplication(adapter)`) for an Express app that has no routes or
 * middleware of its own: Strata then serves the app with its own engine, as without the
 * adapter. An Express app given routes or middleware fails the start (they would never run),
 * and {@link ExpressAdapter.getInstance} throws: there is no Express app to serve from.
 *
 * @since 0.1.0
 * @category app
 */
export class ExpressAdapter {
  constructor(readonly instance?: unknown) {}

  /** Throws: Strata serves HTTP itself, so no Express app serves this one's routes. */
  getInstance(): never {
    throw new Error(`ExpressAdapter.getInstance(): ${NO_EXPRESS_INSTANCE}`);
  }

  /**
   * Throws when the Express app was given routes or middleware (`app.use(...)`), which Strata
   * would never run; `where` names the call that received the adapter.
   */
  checkUnused(where: string): void {
    const layers = expressLayers(this.instance);
    if (layers > 0) {
      throw new Error(
        `${where}: the Express app of this ExpressAdapter has ${layers} route(s) or middleware of its own, which would never run. ${NO_EXPRESS_INSTANCE}`,
      );
    }
  }
}

/**
 * What `app.getHttpAdapter()` gives: the app's HTTP server, and a `getInstance()` that throws
 * (there is no Express or Fastify instance behind a Strata app).
 *
 * @since 0.1.0
 * @category app
 */
export interface HttpAdapterView {
  /** Always `"strata"`. */
  getType(): "strata";
  /** The node `http.Server` of `app.getHttpServer()`. */
  getHttpServer(): unknown;
  /** Throws: there is no Express app behind a Strata app. */
  getInstance(): never;
}

/** The {@link HttpAdapterView} of an app whose HTTP server `server()` gives. */
export const httpAdapterView = (server: () => unknown): HttpAdapterView => ({
  getType: () => "strata",
  getHttpServer: server,
  getInstance: () => {
    throw new Error(`app.getHttpAdapter().getInstance(): ${NO_EXPRESS_INSTANCE}`);
  },
});
