/**
 * `GET <base>/:provider`: starts an authorization, a 302 to the provider with the transaction
 * in the transaction cookie; with `?intent=link` (and `session.link`), a link of the provider
 * account to the signed-in user, from the app's own pages only.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { codedFailureResponse } from "../../http/CodedFailure.js";
import { isCrossSite } from "../../middleware/SameOrigin.js";
import { setResponseHeaders } from "../../server/internal/FastPath.js";
import { secured, securityHeaders } from "../../session/internal/securityHeaders.js";
import { linkOwner } from "../LinkOwner.js";
import type { OAuthProviderService } from "../OAuthProvider.js";
import type { TransactionRedirects } from "../OAuthTransaction.js";
import { transactionCookie } from "../TransactionCookie.js";
import { queryParam, queryRedirects } from "./queryRedirects.js";
import { failureResponse, invalidIntent, sessionRequired } from "./routeFailures.js";
import type { RouteSetup } from "./routeSetup.js";

/** What every started authorization answers, before its location and cookie are added. */
const found = HttpServerResponse.empty({ status: 302, headers: securityHeaders });

/** What the route reads of a request's context, in one read. */
type AuthorizeContext = Context.Context<
  | HttpLayerRouter.RouteContext
  | HttpServerRequest.ParsedSearchParams
  | HttpServerRequest.HttpServerRequest
>;

/**
 * The hot route: as few steps as it takes, no span (it only computes; the server's span
 * covers it). Route params and query come from the request's context in one read.
 */
export const authorizeRoute = (setup: RouteSetup) => {
  const { oauth, store, providers, sessions, options } = setup;
  const linkData = options.session?.link;

  /** The authorization of `provider`: its transaction saved, a 302 to the provider. */
  const start = (
    context: AuthorizeContext,
    provider: OAuthProviderService,
    redirects: TransactionRedirects,
    link: { readonly owner: string } | undefined,
  ) =>
    Effect.flatMap(
      oauth.authorize(provider.name, {
        redirects,
        offline: setup.wantsOffline(provider.name),
        ...(link === undefined ? {} : { intent: "link", linkOwner: link.owner }),
      }),
      (authorization) =>
        Effect.map(
          store.save(
            authorization.transaction,
            setup.clientKey(Context.get(context, HttpServerRequest.HttpServerRequest)),
          ),
          (cookie) =>
            setResponseHeaders(found, {
              location: authorization.url,
              "set-cookie": transactionCookie(cookie, setup.isSecure(provider)),
            }),
        ),
    );

  return Effect.contextWithEffect((context: AuthorizeContext) => {
    const params = Context.get(context, HttpLayerRouter.RouteContext).params;
    const provider = providers.get(params.provider ?? "");
    if (provider === undefined) return Effect.succeed(setup.unknownProvider);
    const query = Context.get(context, HttpServerRequest.ParsedSearchParams);
    const redirects = queryRedirects(query, setup.redirectOrigins);
    if (Either.isLeft(redirects)) {
      return Effect.succeed(secured(codedFailureResponse(redirects.left)));
    }
    const intent = queryParam(query, "intent");
    if (intent === undefined) return start(context, provider, redirects.right, undefined);
    // A link starts only for a signed-in user, where the app links.
    if (intent !== "link" || linkData === undefined || sessions === undefined) {
      return Effect.succeed(secured(codedFailureResponse(invalidIntent)));
    }
    // ... from the app's own pages, as a logout (SECURITY.md 45): another site's link would
    // otherwise join the attacker's provider account to the signed-in victim.
    const request = Context.get(context, HttpServerRequest.HttpServerRequest);
    if (isCrossSite(request.headers, setup.appOrigins)) return Effect.succeed(setup.crossSite);
    return Effect.flatMap(sessions.current, (current) =>
      Option.isNone(current)
        ? Effect.succeed(secured(codedFailureResponse(sessionRequired)))
        : start(context, provider, redirects.right, { owner: linkOwner(current.value) }),
    );
  }).pipe(Effect.catchAllCause((cause) => Effect.map(failureResponse(cause), secured)));
};
