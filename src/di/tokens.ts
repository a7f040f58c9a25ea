/**
 * The token of the current request, for a provider that needs it:
 * `constructor(@Inject(REQUEST) private readonly request: RequestContext)`. It injects the
 * request's {@link RequestContext} (the object `@Req()` injects: method, url, headers, params,
 * query, body, `user`, and the platform request as `req`), where NestJS injects express's
 * `Request`. A provider that injects it is request-scoped (and so is whatever depends on it).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const REQUEST = "REQUEST";

/**
 * Registers a guard for every route from any module, created through dependency injection in
 * that module: `providers: [{ provide: APP_GUARD, useClass: AuthGuard }]`. Several are allowed;
 * they run before the guards given to the app's options, in module order.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const APP_GUARD = "APP_GUARD";

/** Like {@link APP_GUARD}, for an interceptor of every route. @since 0.1.0 @category dependency injection */
export const APP_INTERCEPTOR = "APP_INTERCEPTOR";

/** Like {@link APP_GUARD}, for a pipe of every argument. @since 0.1.0 @category dependency injection */
export const APP_PIPE = "APP_PIPE";

/** Like {@link APP_GUARD}, for an exception filter of every route. @since 0.1.0 @category dependency injection */
export const APP_FILTER = "APP_FILTER";

/**
 * Injects an object of the class of the provider this one is built for (`inquirer.constructor`
 * is that class, as in NestJS, whose constructor gets such an object too): a transient logger
 * naming its consumer. A transient provider is built per consumer; a request-scoped one for its
 * first consumer in the request; a singleton gets `undefined`.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const INQUIRER = "INQUIRER";
