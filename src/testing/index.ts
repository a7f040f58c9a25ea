/**
 * `strata/testing`: testing modules with provider overrides, real in-process HTTP requests
 * against a compiled app (classic) or a Layer of routes (Effect), and mocked OAuth providers
 * for logins without network (`MockProvider`, both faces).
 *
 * @since 0.1.0
 */
import "../decorators/reflectMetadata.js";

export * as TestSession from "../session/TestSession.js";
export type { MockFailure, MockProviderOptions } from "./MockProvider.js";
export * as MockProvider from "./MockProvider.js";
export {
  request,
  type ServeTestOptions,
  serveTest,
  type TestRequestInit,
  type TestResponse,
} from "./TestHttp.js";
export { type OverrideBy, Test, TestingModule, TestingModuleBuilder } from "./TestingModule.js";
