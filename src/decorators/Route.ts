import { appendMetadata, MetadataKey } from "../di/metadata.js";

/** The HTTP methods a route decorator can declare (`*`: every method, `@All()`). @since 0.1.0 @category decorators */
export type RouteMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "*";

/** A route recorded on a controller class. */
export interface RouteMetadata {
  readonly method: RouteMethod;
  readonly path: string;
  readonly handler: string | symbol;
}

/** The argument of a route decorator: a path, or `{ path }`. @since 0.1.0 @category decorators */
export type RoutePath = string | { readonly path?: string };

const route =
  (method: RouteMethod) =>
  (path: RoutePath = ""): MethodDecorator =>
  (target, handler) => {
    const metadata: RouteMetadata = {
      method,
      path: typeof path === "string" ? path : (path.path ?? ""),
      handler,
    };
    appendMetadata(MetadataKey.routes, metadata, target.constructor);
  };

/** Routes `GET prefix/path` to the method; `:name` segments are path parameters. @since 0.1.0 @category decorators */
export const Get = route("GET");
/** Routes `POST prefix/path` to the method (default status 201). @since 0.1.0 @category decorators */
export const Post = route("POST");
/** Routes `PUT prefix/path` to the method. @since 0.1.0 @category decorators */
export const Put = route("PUT");
/** Routes `DELETE prefix/path` to the method. @since 0.1.0 @category decorators */
export const Delete = route("DELETE");
/** Routes `PATCH prefix/path` to the method. @since 0.1.0 @category decorators */
export const Patch = route("PATCH");
/** Routes every method of `prefix/path` to the method (NestJS's `@All()`). @since 0.1.0 @category decorators */
export const All = route("*");
