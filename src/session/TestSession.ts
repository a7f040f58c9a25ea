/**
 * Sessions in tests, on both faces: requests run signed in as a given user, with no sign-in
 * and no cookie. `create` signs in and `destroy` signs out for every later request, so a test
 * can also walk through sign-in, a protected route and sign-out.
 *
 * @example
 * declare const Routes: Layer.Layer<never, never, HttpLayerRouter.HttpRouter>; // the app's routes
 * declare class AppModule {} // imports SessionModule.forRoot(...)
 * const alice = { id: "1", name: "Alice" };
 *
 * // Effect face: `UserSession.layerTest(user)` is the same, typed.
 * const Served = serveTest(Routes).pipe(Layer.provide(TestSession.layer(alice)));
 * // Classic face
 * const module = await Test.createTestingModule({ imports: [AppModule] })
 *   .overrideProvider(SessionService).useValue(TestSession.service(alice))
 *   .compile();
 *
 * @since 0.1.0
 */
import * as Layer from "effect/Layer";
import { makeTestSession } from "./internal/makeTestSession.js";
import { Session } from "./Session.js";
import { SessionService } from "./SessionService.js";

/**
 * The `Session` service of a test: signed in as `data` (signed out without it).
 *
 * @since 0.1.0
 * @category testing
 */
export const layer = <A>(data?: A): Layer.Layer<Session> =>
  Layer.sync(Session, () => makeTestSession<unknown>(data));

/**
 * A `SessionService` for `overrideProvider(SessionService).useValue(...)`: signed in as `data`
 * (signed out without it); `SessionGuard` and `@CurrentUser()` read it too.
 *
 * @since 0.1.0
 * @category testing
 */
export const service = <A>(data?: A): SessionService<A> =>
  new SessionService(makeTestSession(data));
