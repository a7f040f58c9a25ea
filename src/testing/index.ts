/**
 * `strata/testing`: testing modules with provider overrides, and real in-process HTTP
 * requests against a compiled app (classic) or a Layer of routes (Effect).
 *
 * @since 0.1.0
 */
import "../decorators/reflectMetadata.js";

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
