/**
 * `effect-strata`: the classic face, what a NestJS developer imports from `@nestjs/common` and
 * `@nestjs/core` (`@Module`, `@Controller`, `@Get`, `@Injectable`, `NestFactory`, exceptions,
 * pipes, guards, middleware classes, ...), and the values both faces share (the `HttpError`
 * failures, `jsonResponse`, `StrataApp` and its `StrataApp.layer`). Every name is flat, as
 * NestJS has it. The Effect face is `effect-strata/effect`: one namespace per module
 * (`StrataServer`, `Middleware`, `Validation`, ...), as `@effect/platform` exports them.
 *
 * @since 0.1.0
 */
import "./di/reflectMetadata.js";

export type { BodyParserOptions } from "./app/BodyParserOptions.js";
export { ExpressAdapter, type HttpAdapterView } from "./app/ExpressAdapter.js";
export {
  Logger,
  type LoggerService,
  type NestLogLevel,
} from "./app/Logger.js";
export type {
  MiddlewareConfigProxy,
  MiddlewareConsumer,
  NestMiddlewareLike,
  RouteInfo as MiddlewareRouteInfo,
} from "./app/MiddlewareConsumer.js";
export { type NestApplicationOptions, NestFactory } from "./app/NestFactory.js";
export {
  type RootModule,
  type ShutdownOptions,
  StrataApp,
  type StrataAppOptions,
} from "./app/StrataApp.js";
export type { PipelineOptions, RouteInfo } from "./compiler/AppRoutes.js";
export { applyDecorators } from "./decorators/applyDecorators.js";
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
export { type MessageEvent, Sse } from "./decorators/Sse.js";
export { UploadedFile, UploadedFiles } from "./decorators/UploadedFile.js";
export { UseFilters } from "./decorators/UseFilters.js";
export { UseGuards } from "./decorators/UseGuards.js";
export { UseInterceptors } from "./decorators/UseInterceptors.js";
export { UsePipes } from "./decorators/UsePipes.js";
export { Version } from "./decorators/Version.js";
export { ApplicationConfig } from "./di/ApplicationConfig.js";
export {
  type ConfigurableModuleAsyncOptions,
  ConfigurableModuleBuilder,
  type ConfigurableModuleBuilderOptions,
  type ConfigurableModuleCls,
  type ConfigurableModuleHost,
  type ConfigurableModuleOptionsFactory,
} from "./di/ConfigurableModuleBuilder.js";
export { Container } from "./di/Container.js";
export {
  type ContextId,
  ContextIdFactory,
  type ContextIdResolver,
  type ContextIdStrategy,
  createContextId,
  type HostComponentInfo,
} from "./di/ContextId.js";
export { DiscoveryModule } from "./di/DiscoveryModule.js";
export {
  type DiscoverableDecorator,
  type DiscoveredProvider,
  type DiscoveryOptions,
  DiscoveryService,
  type DiscoverySource,
} from "./di/DiscoveryService.js";
export { type ForwardReference, forwardRef } from "./di/forwardRef.js";
export { Global } from "./di/Global.js";
export { Inject, type InjectTarget } from "./di/Inject.js";
export {
  Injectable,
  type InjectableOptions,
  Service,
  type ServiceOptions,
} from "./di/Injectable.js";
export { LazyModuleLoader } from "./di/LazyModuleLoader.js";
export { MetadataScanner } from "./di/MetadataScanner.js";
export {
  type DynamicModule,
  Module,
  type ModuleImport,
  type ModuleImportLike,
  type ModuleOptions,
} from "./di/Module.js";
export {
  type IntrospectionResult,
  ModuleRef,
  type ModuleRefOptions,
  type ModuleRefSource,
} from "./di/ModuleRef.js";
export { Optional } from "./di/Optional.js";
export type { OptionalFactoryDependency, Provider, ProviderLike } from "./di/Provider.js";
export {
  type CreateDecoratorOptions,
  type ReflectableDecorator,
  Reflector,
} from "./di/Reflector.js";
export { ROUTES, RouterModule, type Routes, type RouteTree } from "./di/RouterModule.js";
export { Scope } from "./di/Scope.js";
export { type CustomDecorator, SetMetadata } from "./di/SetMetadata.js";
export { StartupError, type StartupErrorReason } from "./di/StartupError.js";
export {
  CircularDependencyException,
  InvalidClassScopeException,
  RuntimeException,
  UnknownDependenciesException,
  UnknownExportException,
} from "./di/StartupExceptions.js";
export type { AbstractType, InjectionToken, Type } from "./di/Token.js";
export {
  APP_FILTER,
  APP_GUARD,
  APP_INTERCEPTOR,
  APP_PIPE,
  INQUIRER,
  REQUEST,
} from "./di/tokens.js";
export type { ErrorBody } from "./http/ErrorResponse.js";
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
export { HttpException } from "./http/HttpException.js";
export type { HttpExceptionOptions } from "./http/HttpExceptionOptions.js";
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
} from "./http/HttpExceptions.js";
export { HttpStatus } from "./http/HttpStatus.js";
export type { BodyLimit, BodyType } from "./http/RequestBody.js";
export type { RawBodyRequest, RequestContext, RequestUser } from "./http/RequestContext.js";
export { RequestMethod } from "./http/RequestMethod.js";
export { StrataResponse } from "./http/StrataResponse.js";
export { StreamableFile, type StreamableFileOptions } from "./http/StreamableFile.js";
export { type JsonResponseOptions, jsonResponse } from "./http/TextResponse.js";
export type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from "./lifecycle/ApplicationHooks.js";
export type {
  HealthCheck,
  HealthCheckOutcome,
  HealthCheckResult,
  HealthReport,
  HealthStatus,
} from "./lifecycle/HealthCheck.js";
export { HealthCheckManager } from "./lifecycle/HealthCheckManager.js";
export type { OnModuleDestroy, OnModuleInit } from "./lifecycle/LifecycleHooks.js";
export { OperationsModule } from "./lifecycle/OperationsModule.js";
export { type ShutdownHandler, ShutdownManager } from "./lifecycle/ShutdownManager.js";
export { CorsMiddleware } from "./middleware/CorsMiddleware.js";
export type {
  CorsOptions,
  CorsOptionsDelegate,
  CorsRequest,
} from "./middleware/CorsOptions.js";
export type { CsrfOptions } from "./middleware/Csrf.js";
export { CsrfMiddleware } from "./middleware/CsrfMiddleware.js";
export { EffectMiddleware } from "./middleware/EffectMiddleware.js";
export { LoggerMiddleware } from "./middleware/LoggerMiddleware.js";
export type {
  NestMiddleware,
  NestMiddlewareFunction,
  NestMiddlewareRequest,
  NestMiddlewareResponse,
} from "./middleware/NestMiddleware.js";
export type { RateLimitOptions } from "./middleware/RateLimit.js";
export { RateLimitMiddleware } from "./middleware/RateLimitMiddleware.js";
export type { LoggerOptions } from "./middleware/RequestLogger.js";
export type { SameOriginOptions } from "./middleware/SameOrigin.js";
export { SameOriginGuard } from "./middleware/SameOriginGuard.js";
export { SameOriginMiddleware } from "./middleware/SameOriginMiddleware.js";
export type {
  HstsOptions,
  SecurityHeadersOptions,
} from "./middleware/SecurityHeaders.js";
export { SecurityHeadersMiddleware } from "./middleware/SecurityHeadersMiddleware.js";
export type {
  MiddlewareContext,
  MiddlewareNext,
  StrataMiddleware,
} from "./middleware/StrataMiddleware.js";
export type { TimeoutOptions } from "./middleware/Timeout.js";
export { TimeoutMiddleware } from "./middleware/TimeoutMiddleware.js";
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
/** NestJS's mapped types over class DTOs, their validation and API description kept. */
export {
  IntersectionType,
  OmitType,
  PartialType,
  PickType,
} from "./openapi/MappedTypes.js";
export type { OpenApiOptions } from "./openapi/OpenApiOptions.js";
export type { CanActivate, GuardLike } from "./pipeline/CanActivate.js";
export {
  CLASS_SERIALIZER_DEFAULTS,
  ClassSerializerInterceptor,
  type ClassSerializerInterceptorOptions,
} from "./pipeline/ClassSerializerInterceptor.js";
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
export {
  AnyFilesInterceptor,
  FileFieldsInterceptor,
  FileInterceptor,
  FilesInterceptor,
  type MulterField,
  type MulterOptions,
  NoFilesInterceptor,
} from "./pipeline/FileInterceptor.js";
export {
  type CallHandler,
  Interceptor,
  type InterceptorLike,
  type RxObservable,
} from "./pipeline/Interceptor.js";
export type { NestInterceptor } from "./pipeline/NestInterceptor.js";
export {
  type ArgumentMetadata,
  type PipeContext,
  type PipeLike,
  PipeTransform,
} from "./pipeline/PipeTransform.js";
export {
  CLASS_SERIALIZER_OPTIONS,
  type ClassSerializerContextOptions,
  SerializeOptions,
} from "./pipeline/SerializeOptions.js";
export type { Upload, UploadLimits } from "./pipeline/Uploads.js";
export {
  VERSION_NEUTRAL,
  type VersionId,
  type VersioningOptions,
  VersioningType,
  type VersionValue,
} from "./pipeline/VersioningOptions.js";
export { DefaultValuePipe } from "./pipes/DefaultValuePipe.js";
export { FileTypeValidator, type FileTypeValidatorOptions } from "./pipes/FileTypeValidator.js";
export { FileValidator, type FileValidatorContext } from "./pipes/FileValidator.js";
export {
  MaxFileSizeValidator,
  type MaxFileSizeValidatorOptions,
} from "./pipes/MaxFileSizeValidator.js";
export { type ParseArrayOptions, ParseArrayPipe } from "./pipes/ParseArrayPipe.js";
export { ParseBoolPipe } from "./pipes/ParseBoolPipe.js";
export { ParseEnumPipe } from "./pipes/ParseEnumPipe.js";
export { type ParseFileOptions, ParseFilePipe } from "./pipes/ParseFilePipe.js";
export { ParseFilePipeBuilder } from "./pipes/ParseFilePipeBuilder.js";
export { ParseFloatPipe } from "./pipes/ParseFloatPipe.js";
export { ParseIntPipe } from "./pipes/ParseIntPipe.js";
export type { ParsePipeOptions } from "./pipes/ParsePipeOptions.js";
export { ParseUUIDPipe, type ParseUUIDPipeOptions } from "./pipes/ParseUUIDPipe.js";
export { ValidationPipe, type ValidationPipeOptions } from "./pipes/ValidationPipe.js";
export { escapeHtml } from "./sanitize/escapeHtml.js";
export { sanitizeEmail } from "./sanitize/sanitizeEmail.js";
export { sanitizeHtml } from "./sanitize/sanitizeHtml.js";
export { sanitizeObject } from "./sanitize/sanitizeObject.js";
export { sanitizeSql } from "./sanitize/sanitizeSql.js";
export { sanitizeString } from "./sanitize/sanitizeString.js";
export { sanitizeUrl } from "./sanitize/sanitizeUrl.js";
