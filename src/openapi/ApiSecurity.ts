import { appendToList } from "../decorators/ClassOrMethodDecorator.js";
import {
  OpenApiKey,
  type SecurityMetadata,
  type SecurityScheme,
} from "../decorators/OpenApiMetadata.js";

/**
 * A security requirement of a controller's routes, of one route, or of every route a guard
 * class protects (decorate the guard: routes under `@UseGuards(ThatGuard)` then require it).
 * `name` refers to a scheme given here, by another `@ApiSecurity` of the same name, or in
 * `openapi.securitySchemes`; a name with no scheme fails the start. Such routes are also
 * described with their 401 and 403 responses.
 *
 * @example
 * @Injectable()
 * @ApiSecurity("apiKey", { type: "apiKey", in: "header", name: "x-api-key" })
 * class ApiKeyGuard implements CanActivate {
 *   canActivate(context: ExecutionContext) {
 *     return context.headers["x-api-key"] === process.env.API_KEY;
 *   }
 * }
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiSecurity = (
  name: string,
  scheme?: SecurityScheme,
  scopes: ReadonlyArray<string> = [],
) => {
  const requirement: SecurityMetadata =
    scheme === undefined ? { name, scopes } : { name, scopes, scheme };
  return appendToList(OpenApiKey.security, [requirement]);
};

/**
 * `Authorization: Bearer <token>`: {@link ApiSecurity} with an HTTP bearer scheme named
 * `name` (default `bearer`).
 *
 * @since 0.1.0
 * @category openapi
 */
export const ApiBearerAuth = (name = "bearer", bearerFormat?: string) =>
  ApiSecurity(name, {
    type: "http",
    scheme: "bearer",
    ...(bearerFormat === undefined ? {} : { bearerFormat }),
  });
