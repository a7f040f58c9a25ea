/**
 * Strata: an Effect-typed application framework with a NestJS-style decorator facade.
 *
 * Classic face: `@Module`, `@Controller`, `@Get`, `@Injectable`, ... and `new StrataApp(AppModule)`.
 * Effect face: `StrataApp.layer(AppModule)` and `StrataServer.serve(routes)` on `@effect/platform`.
 *
 * @since 0.1.0
 */
import "./di/reflectMetadata.js";

export type { BodyParserOptions } from "./app/BodyParserOptions.js";
export { type NestApplicationOptions, NestFactory } from "./app/NestFactory.js";
export {
  type RootModule,
  type ShutdownOptions,
  StrataApp,
  type StrataAppOptions,
} from "./app/StrataApp.js";
export { Catch } from "./decorators/Catch.js";
export type { ClassOrMethodDecorator } from "./decorators/ClassOrMethodDecorator.js";
export {
  Controller,
  type ControllerHost,
  type ControllerOptions,
} from "./decorators/Controller.js";
export {
  type CustomParamFactory,
  createParamDecorator,
} from "./decorators/createParamDecorator.js";
export {
  Body,
  Headers,
  HostParam,
  Ip,
  Param,
  type ParamArgument,
  Query,
  Req,
  Request,
  Res,
} from "./decorators/Params.js";
export { Header, HttpCode, Redirect } from "./decorators/ResponseDecorators.js";
export {
  All,
  Delete,
  Get,
  Patch,
  Post,
  Put,
  type RouteMethod,
  type RoutePath,
} from "./decorators/Route.js";
export { UploadedFile, UploadedFiles } from "./decorators/UploadedFile.js";
export { UseFilters } from "./decorators/UseFilters.js";
export { UseGuards } from "./decorators/UseGuards.js";
export { UseInterceptors } from "./decorators/UseInterceptors.js";
export { UsePipes } from "./decorators/UsePipes.js";
export { Version } from "./decorators/Version.js";
export { Container } from "./di/Container.js";
export { type ForwardReference, forwardRef } from "./di/forwardRef.js";
export { Inject, type InjectTarget } from "./di/Inject.js";
export {
  Injectable,
  type InjectableOptions,
  SERVICE_REPOSITORY_METADATA,
  Service,
  type ServiceOptions,
} from "./di/Injectable.js";
export { Injector } from "./di/Injector.js";
export {
  type DynamicModule,
  Module,
  type ModuleImport,
  type ModuleImportLike,
  type ModuleOptions,
  StrataModule,
} from "./di/Module.js";
export {
  type ContextId,
  ContextIdFactory,
  createContextId,
  type IntrospectionResult,
  ModuleRef,
  type ModuleRefOptions,
  type ModuleRefSource,
} from "./di/ModuleRef.js";
export type { OptionalFactoryDependency, Provider, ProviderLike } from "./di/Provider.js";
export {
  type CreateDecoratorOptions,
  type ReflectableDecorator,
  Reflector,
} from "./di/Reflector.js";
export { Scope } from "./di/Scope.js";
export { type CustomDecorator, SetMetadata } from "./di/SetMetadata.js";
export { StartupError, type StartupErrorReason } from "./di/StartupError.js";
export type { AbstractType, InjectionToken, Type } from "./di/Token.js";
export { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, REQUEST } from "./di/tokens.js";
export {
  ApplicationConfig,
  DiscoveryService,
  INQUIRER,
  LazyModuleLoader,
} from "./di/Unsupported.js";
export { type ErrorBody, errorBody, validationError } from "./http/ErrorResponse.js";
export {
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GatewayTimeoutError,
  GoneError,
  HttpError,
  HttpVersionNotSupportedError,
  ImATeapotError,
  InternalServerError,
  isHttpError,
  MethodNotAllowedError,
  MisdirectedError,
  NotAcceptableError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  PreconditionFailedError,
  RequestTimeoutError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
} from "./http/HttpError.js";
/**
 * The deepest nesting a JSON request body may have (default 1000): checked right after parsing,
 * before anything recursive walks the value; `withJsonDepthLimit` sets it on the Effect face.
 *
 * @since 0.1.0
 */
export * as JsonDepth from "./http/JsonDepth.js";
export { DEFAULT_JSON_DEPTH_LIMIT } from "./http/JsonDepth.js";
export {
  type BodyLimit,
  type BodyType,
  bodyLimitByType,
  DEFAULT_BODY_LIMIT,
  readBody,
} from "./http/RequestBody.js";
export type { RawBodyRequest, RequestContext, RequestUser } from "./http/RequestContext.js";
export { StrataResponse } from "./http/StrataResponse.js";
export { StreamableFile, type StreamableFileOptions } from "./http/StreamableFile.js";
export { type JsonResponseOptions, jsonResponse } from "./http/TextResponse.js";
export type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from "./lifecycle/ApplicationHooks.js";
export type { HealthOptions } from "./lifecycle/Health.js";
/**
 * Liveness and readiness probe routes (`/health` and `/ready` by default) for the Effect face,
 * answered from the app's `HealthCheck`s.
 *
 * @since 0.1.0
 */
export * as Health from "./lifecycle/Health.js";
export {
  DEFAULT_CHECK_TIMEOUT,
  type HealthCheck,
  type HealthCheckOutcome,
  type HealthCheckResult,
  type HealthReport,
  type HealthStatus,
} from "./lifecycle/HealthCheck.js";
export { HealthCheckManager } from "./lifecycle/HealthCheckManager.js";
export { HealthPaths } from "./lifecycle/HealthPaths.js";
export type { OnModuleDestroy, OnModuleInit } from "./lifecycle/LifecycleHooks.js";
export { OperationsModule } from "./lifecycle/OperationsModule.js";
export { type ShutdownHandler, ShutdownManager } from "./lifecycle/ShutdownManager.js";
/**
 * CORS middleware: answers preflight requests and adds the `Access-Control-*` headers that
 * `CorsOptions` allow.
 *
 * @since 0.1.0
 */
export * as Cors from "./middleware/Cors.js";
export {
  CorsMiddleware,
  type CorsOptions,
  type CorsOptionsDelegate,
  type CorsRequest,
} from "./middleware/Cors.js";
/**
 * CSRF protection middleware: a signed double-submit token bound to the client; a request other
 * than `GET`, `HEAD` or `OPTIONS` without it in `x-csrf-token` is refused with 403.
 *
 * @since 0.1.0
 */
export * as Csrf from "./middleware/Csrf.js";
export { CsrfMiddleware, type CsrfOptions } from "./middleware/Csrf.js";
export { EffectMiddleware } from "./middleware/EffectMiddleware.js";
export {
  GlobalMiddlewareManager,
  type MiddlewareLike,
} from "./middleware/GlobalMiddlewareManager.js";
/**
 * The in-process `RateLimitStore`: counters in memory, for one instance.
 *
 * @since 0.1.0
 */
export * as MemoryRateLimitStore from "./middleware/MemoryRateLimitStore.js";
/**
 * Helpers to write, compose and scope Effect-face middleware (`HttpMiddleware`) without spelling
 * out their generic signatures.
 *
 * @since 0.1.0
 */
export * as Middleware from "./middleware/Middleware.js";
/**
 * Rate-limiting middleware: a fixed window of requests per client, counted in a `RateLimitStore`;
 * 429 past the limit.
 *
 * @since 0.1.0
 */
export * as RateLimit from "./middleware/RateLimit.js";
export {
  DEFAULT_RATE_LIMIT,
  RateLimitMiddleware,
  type RateLimitOptions,
} from "./middleware/RateLimit.js";
export {
  type BucketTake,
  RateLimitStore,
  RateLimitStoreError,
  type WindowCount,
} from "./middleware/RateLimitStore.js";
export type { RedisRateLimitStoreOptions } from "./middleware/RedisRateLimitStore.js";
/**
 * A `RateLimitStore` in Redis, shared by every instance of a scaled-out app.
 *
 * @since 0.1.0
 */
export * as RedisRateLimitStore from "./middleware/RedisRateLimitStore.js";
export type { TrustProxy } from "./middleware/RequestInfo.js";
/**
 * What middleware read of a request: its canonical path, path-prefix matching, the client's
 * address and scheme behind trusted proxies.
 *
 * @since 0.1.0
 */
export * as RequestInfo from "./middleware/RequestInfo.js";
/**
 * Request logging middleware: one log line per request (method, path without query, status,
 * duration).
 *
 * @since 0.1.0
 */
export * as RequestLogger from "./middleware/RequestLogger.js";
export { LoggerMiddleware, type LoggerOptions } from "./middleware/RequestLogger.js";
/**
 * The same-origin check of state-changing requests (the one `POST /auth/logout` uses): a guard,
 * middleware, or one step of a route.
 *
 * @since 0.1.0
 */
export * as SameOrigin from "./middleware/SameOrigin.js";
export {
  SameOriginGuard,
  SameOriginMiddleware,
  type SameOriginOptions,
} from "./middleware/SameOrigin.js";
/**
 * Security headers middleware: Content-Security-Policy, HSTS, `X-Content-Type-Options` and related
 * headers on every response.
 *
 * @since 0.1.0
 */
export * as SecurityHeaders from "./middleware/SecurityHeaders.js";
export {
  DEFAULT_CONTENT_SECURITY_POLICY,
  type HstsOptions,
  SecurityHeadersMiddleware,
  type SecurityHeadersOptions,
} from "./middleware/SecurityHeaders.js";
export {
  fromStrataMiddleware,
  type MiddlewareContext,
  type MiddlewareNext,
  type StrataMiddleware,
} from "./middleware/StrataMiddleware.js";
/**
 * Request timeout middleware: a request whose response is not ready in time is interrupted and
 * answered 408.
 *
 * @since 0.1.0
 */
export * as Timeout from "./middleware/Timeout.js";
export { DEFAULT_TIMEOUT, TimeoutMiddleware, type TimeoutOptions } from "./middleware/Timeout.js";
export { applyDecorators } from "./nest/applyDecorators.js";
export {
  CLASS_SERIALIZER_DEFAULTS,
  ClassSerializerInterceptor,
  type ClassSerializerInterceptorOptions,
} from "./nest/ClassSerializerInterceptor.js";
export { ConfigurableModuleBuilder } from "./nest/ConfigurableModuleBuilder.js";
export { ExpressAdapter, type HttpAdapterView } from "./nest/ExpressAdapter.js";
export {
  AnyFilesInterceptor,
  FileFieldsInterceptor,
  FileInterceptor,
  FilesInterceptor,
  type MulterField,
  type MulterOptions,
  NoFilesInterceptor,
} from "./nest/FileInterceptor.js";
export { FileTypeValidator, type FileTypeValidatorOptions } from "./nest/FileTypeValidator.js";
export { FileValidator, type FileValidatorContext } from "./nest/FileValidator.js";
export { Global } from "./nest/Global.js";
export { HttpException } from "./nest/HttpException.js";
export type { HttpExceptionOptions } from "./nest/HttpExceptionOptions.js";
export {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GatewayTimeoutException,
  GoneException,
  HttpVersionNotSupportedException,
  ImATeapotException,
  InternalServerErrorException,
  MethodNotAllowedException,
  MisdirectedException,
  type NestExceptionClass,
  NotAcceptableException,
  NotFoundException,
  NotImplementedException,
  PayloadTooLargeException,
  PreconditionFailedException,
  RequestTimeoutException,
  ServiceUnavailableException,
  TooManyRequestsException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from "./nest/HttpExceptions.js";
export { HttpStatus } from "./nest/HttpStatus.js";
export {
  Logger,
  type LoggerService,
  type NestLogLevel,
} from "./nest/Logger.js";
export {
  MaxFileSizeValidator,
  type MaxFileSizeValidatorOptions,
} from "./nest/MaxFileSizeValidator.js";
export type {
  MiddlewareConfigProxy,
  MiddlewareConsumer,
  NestMiddlewareLike,
  RouteInfo as MiddlewareRouteInfo,
} from "./nest/MiddlewareConsumer.js";
export type { NestInterceptor } from "./nest/NestInterceptor.js";
export type {
  NestMiddleware,
  NestMiddlewareFunction,
  NestMiddlewareRequest,
  NestMiddlewareResponse,
} from "./nest/NestMiddleware.js";
export { Optional } from "./nest/Optional.js";
export { type ParseFileOptions, ParseFilePipe } from "./nest/ParseFilePipe.js";
export { ParseFilePipeBuilder } from "./nest/ParseFilePipeBuilder.js";
export { RequestMethod } from "./nest/RequestMethod.js";
export { ROUTES, RouterModule, type Routes, type RouteTree } from "./nest/RouterModule.js";
export {
  CLASS_SERIALIZER_OPTIONS,
  type ClassSerializerContextOptions,
  SerializeOptions,
} from "./nest/SerializeOptions.js";
export { type MessageEvent, Sse } from "./nest/Sse.js";
export {
  CircularDependencyException,
  InvalidClassScopeException,
  RuntimeException,
  UnknownDependenciesException,
  UnknownExportException,
} from "./nest/StartupExceptions.js";
export { ApiExcludeController, ApiExcludeEndpoint } from "./openapi/ApiExclude.js";
export { ApiOperation, type ApiOperationOptions } from "./openapi/ApiOperation.js";
export {
  ApiProperty,
  ApiPropertyOptional,
  type ApiPropertyOptions,
} from "./openapi/ApiProperty.js";
export {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiResponse,
  type ApiResponseOptions,
} from "./openapi/ApiResponse.js";
export { ApiBearerAuth, ApiSecurity } from "./openapi/ApiSecurity.js";
export { ApiTags } from "./openapi/ApiTags.js";
export { ErrorBodySchema, ValidationErrorBodySchema } from "./openapi/ErrorBodies.js";
/** NestJS's mapped types over class DTOs, their validation and API description kept. */
export {
  IntersectionType,
  OmitType,
  PartialType,
  PickType,
} from "./openapi/MappedTypes.js";
/**
 * The Effect face's OpenAPI document and docs page: one document built from `HttpApi`s, served
 * with a rendered page.
 *
 * @since 0.1.0
 */
export * as OpenApiDocs from "./openapi/OpenApiDocs.js";
/**
 * The types of an OpenAPI 3.1 document as Strata builds it (operations, parameters, responses,
 * security schemes).
 *
 * @since 0.1.0
 */
export type * as OpenApiDocument from "./openapi/OpenApiDocument.js";
export {
  DEFAULT_DOCS_PATH,
  DEFAULT_OPENAPI_PATH,
  DOCS_CONTENT_SECURITY_POLICY,
  type OpenApiOptions,
} from "./openapi/OpenApiOptions.js";
export { describeRoute, type RouteDescription } from "./openapi/RouteDescription.js";
/**
 * Drop-in `HttpApiBuilder.group` and `HttpLayerRouter.addHttpApi` that keep `HttpApi` routes on
 * Strata's fast path (no context swap per request, Schemas compiled once).
 *
 * @since 0.1.0
 */
export * as StrataHttpApi from "./openapi/StrataHttpApi.js";
export type { CanActivate, GuardLike } from "./pipeline/CanActivate.js";
export type {
  ClassTransformOptions,
  ClassValidatorOptions,
  ValidationError,
} from "./pipeline/ClassValidation.js";
export type { ExceptionFilter, FilterLike } from "./pipeline/ExceptionFilter.js";
export type {
  ArgumentsHost,
  ExecutionContext,
  HttpArgumentsHost,
} from "./pipeline/ExecutionContext.js";
/**
 * Guards on the Effect face: `guard` runs a check before a handler, `authenticate` provides the
 * `CurrentUser`.
 *
 * @since 0.1.0
 */
export * as Guards from "./pipeline/Guards.js";
export {
  type CallHandler,
  Interceptor,
  type InterceptorLike,
  type RxObservable,
} from "./pipeline/Interceptor.js";
export {
  type ArgumentMetadata,
  type PipeContext,
  type PipeLike,
  PipeTransform,
} from "./pipeline/PipeTransform.js";
/**
 * Multipart uploads within limits: `read` and `readUpload` stream a `multipart/form-data` body
 * into fields and files.
 *
 * @since 0.1.0
 */
export * as Uploads from "./pipeline/Uploads.js";
export { DEFAULT_UPLOAD_LIMITS, type Upload, type UploadLimits } from "./pipeline/Uploads.js";
export type { DtoSchema, ValidationOptions } from "./pipeline/Validation.js";
/**
 * Schema validation of a request's body, query and path parameters on the Effect face, answering
 * 400 in the standard error shape.
 *
 * @since 0.1.0
 */
export * as Validation from "./pipeline/Validation.js";
/**
 * API versioning on the Effect face: routes by version from the URI, a header or the media type.
 *
 * @since 0.1.0
 */
export * as Versioning from "./pipeline/Versioning.js";
export {
  VERSION_NEUTRAL,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionValue,
} from "./pipeline/Versioning.js";
export { DefaultValuePipe } from "./pipes/DefaultValuePipe.js";
export { type ParseArrayOptions, ParseArrayPipe } from "./pipes/ParseArrayPipe.js";
export { ParseBoolPipe } from "./pipes/ParseBoolPipe.js";
export { ParseEnumPipe } from "./pipes/ParseEnumPipe.js";
export { ParseFloatPipe } from "./pipes/ParseFloatPipe.js";
export { ParseIntPipe } from "./pipes/ParseIntPipe.js";
export type { ParsePipeOptions } from "./pipes/ParsePipeOptions.js";
export { ParseUUIDPipe, type ParseUUIDPipeOptions } from "./pipes/ParseUUIDPipe.js";
export { ValidationPipe, type ValidationPipeOptions } from "./pipes/ValidationPipe.js";
export type { PipelineOptions, RouteInfo } from "./routes/AppRoutes.js";
export { escapeHtml } from "./sanitize/escapeHtml.js";
export { sanitizeEmail } from "./sanitize/sanitizeEmail.js";
export { sanitizeHtml } from "./sanitize/sanitizeHtml.js";
export { sanitizeObject } from "./sanitize/sanitizeObject.js";
export { sanitizeSql } from "./sanitize/sanitizeSql.js";
export { sanitizeString } from "./sanitize/sanitizeString.js";
export { sanitizeUrl } from "./sanitize/sanitizeUrl.js";
export { AppServing, type AppServingOptions } from "./server/AppServing.js";
/**
 * The Effect face's server: `serve` runs `HttpLayerRouter` routes (and a compiled `StrataApp`) on
 * Strata's fast Node server, `layerNode` listens.
 *
 * @since 0.1.0
 */
export * as StrataServer from "./server/StrataServer.js";
