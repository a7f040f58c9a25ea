/**
 * Strata: an Effect-typed application framework with a NestJS-style decorator facade.
 *
 * Classic face: `@Module`, `@Controller`, `@Get`, `@Injectable`, ... and `new StrataApp(AppModule)`.
 * Effect face: `StrataApp.layer(AppModule)` and `StrataServer.serve(routes)` on `@effect/platform`.
 *
 * @since 0.1.0
 */
import "reflect-metadata";

export * from "./core/ErrorResponse.js";
export * from "./core/HttpError.js";
export { DEFAULT_BODY_LIMIT, readBody } from "./core/RequestBody.js";
export { type RootModule, StrataApp, type StrataAppOptions } from "./core/StrataApp.js";
export * as StrataServer from "./core/StrataServer.js";
export { Controller, type ControllerOptions } from "./decorators/Controller.js";
export { Inject } from "./decorators/Inject.js";
export {
  Injectable,
  type InjectableOptions,
  SERVICE_REPOSITORY_METADATA,
  Service,
  type ServiceOptions,
} from "./decorators/Injectable.js";
export {
  type DynamicModule,
  Module,
  type ModuleImport,
  type ModuleOptions,
  StrataModule,
} from "./decorators/Module.js";
export { Body, Headers, Param, Query, Req, Res } from "./decorators/Params.js";
export { Header, HttpCode, Redirect } from "./decorators/ResponseDecorators.js";
export {
  Delete,
  Get,
  Patch,
  Post,
  Put,
  type RouteMethod,
  type RoutePath,
} from "./decorators/Route.js";
export { Container } from "./di/Container.js";
export { Injector } from "./di/Injector.js";
export type { Provider, ProviderLike } from "./di/Provider.js";
export { Scope } from "./di/Scope.js";
export { StartupError } from "./di/StartupError.js";
export type { AbstractType, InjectionToken, Type } from "./di/Token.js";
export type { RequestContext, RequestUser } from "./http/RequestContext.js";
export { StrataResponse } from "./http/StrataResponse.js";
export { ParseIntPipe } from "./pipes/ParseIntPipe.js";
export { type PipeLike, PipeTransform } from "./pipes/PipeTransform.js";
