/**
 * The state check of a custom callback route, as a guard (`@UseGuards(OAuthStateGuard)`) for
 * the classic face and as an Effect for the Effect face.
 *
 * @since 0.1.0
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import { Injectable } from "../di/Injectable.js";
import { UnauthorizedError } from "../http/HttpError.js";
import type { CanActivate } from "../pipeline/CanActivate.js";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";
import { readFlowCookie } from "./OAuthFlowCookie.js";
import { validateState } from "./StateCheck.js";

const invalidState = () => new UnauthorizedError("Invalid state");

/**
 * Validates the callback's `state` query parameter against the state stored in the flow
 * cookie (`flowCookie`, see the custom-flow pattern): a missing cookie, a missing, empty,
 * repeated or different state is refused with 401 `Invalid state` before the handler runs.
 * The comparison is constant-time. (The built-in routes do their own check against the
 * sealed transaction; this guard is for custom callback routes.)
 *
 * @example
 * @Controller("login")
 * class LoginController {
 *   constructor(private readonly oauth: OAuthService) {}
 *
 *   @Get(":provider/callback")
 *   @UseGuards(OAuthStateGuard)
 *   async callback(
 *     @Param("provider") provider: SupportedProvider,
 *     @Query("code") code: string,
 *     @Query("state") state: string,
 *     @Headers("cookie") cookie: string | undefined,
 *   ) {
 *     const flow = readFlowCookie(cookie); // the guard checked that its state is this one
 *     const { codeVerifier, nonce } = flow ?? {};
 *     const result = await this.oauth.handleCallback(provider, code, state, codeVerifier, nonce);
 *     return { user: result.user };
 *   }
 * }
 *
 * @since 0.1.0
 * @category custom flow
 */
@Injectable()
export class OAuthStateGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const stored = readFlowCookie(context.headers.cookie);
    if (!validateState(context.query.state, stored?.state)) throw invalidState();
    return true;
  }
}

/**
 * The same check for Effect routes: fails with 401 `Invalid state` unless the `state` query
 * parameter equals the flow cookie's state.
 *
 * @example
 * // the callback's handler, which exchanges the code
 * declare const handler: Effect.Effect<HttpServerResponse.HttpServerResponse>;
 *
 * HttpLayerRouter.add("GET", "/login/:provider/callback", Effect.zipRight(requireOAuthState, handler))
 *
 * @since 0.1.0
 * @category custom flow
 */
export const requireOAuthState: Effect.Effect<
  void,
  UnauthorizedError,
  HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams
> = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest;
  const query = yield* HttpServerRequest.ParsedSearchParams;
  const stored = readFlowCookie(request.headers.cookie);
  const received = Object.hasOwn(query, "state") ? query.state : undefined;
  if (!validateState(received, stored?.state)) return yield* invalidState();
});
