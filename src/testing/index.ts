/**
 * `effect-strata/testing`: testing modules with provider overrides, real in-process HTTP requests
 * against a compiled app (classic) or a Layer of routes (Effect), and mocked OAuth providers
 * for logins without network (`MockProvider`, both faces).
 *
 * @since 0.1.0
 */
import "../di/reflectMetadata.js";

/**
 * A `Session` for tests: signed in as the given user, or signed out, without cookies.
 *
 * @since 0.1.0
 */
export * as TestSession from "../session/TestSession.js";
/**
 * Mocked OAuth providers for tests: sign-in flows that succeed with a given profile, or fail at a
 * chosen step, without network.
 *
 * @since 0.1.0
 */
export * as MockProvider from "./MockProvider.js";
export {
  request,
  type ServeTestOptions,
  serveTest,
  type TestRequestInit,
  type TestResponse,
} from "./TestHttp.js";
export { type OverrideBy, Test, TestingModule, TestingModuleBuilder } from "./TestingModule.js";
