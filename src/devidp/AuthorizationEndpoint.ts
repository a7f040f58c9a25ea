/**
 * The authorization endpoint every dialect shares: `GET` validates the request and shows the
 * sign-in page, `POST` (the page's answer) redirects back with a code and the state.
 *
 * Checks, in order (RFC 6749 4.1, RFC 7636): parameters sent once; a registered `client_id`;
 * `redirect_uri` equal to the registered one (these two are answered with an error page,
 * never a redirect); then, answered by a redirect with `error=`: `response_type=code`, and an
 * S256 PKCE challenge where the dialect or a public client requires one.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";
import { isPublicClient } from "./DevClient.js";
import type { DialectContext } from "./DialectContext.js";
import type { CodeGrant, PendingAuthorization } from "./Grants.js";
import { isS256Challenge } from "./Pkce.js";
import { queryParams, type RequestParams, readParams } from "./RequestParams.js";
import { errorPage, signInPage } from "./SignInPage.js";

/**
 * How a dialect's authorization endpoint differs.
 *
 * @since 0.1.0
 * @category authorization
 */
export interface AuthorizationDialect {
  readonly provider: SupportedProvider;
  /** The router path (may hold `:tenant`). */
  readonly path: `/${string}`;
  /** `required`: every request carries an S256 challenge; `optional`: checked when sent. */
  readonly pkce: "required" | "optional";
  /** `false` where the provider falls back to the registered URI (github). */
  readonly redirectUriRequired: boolean;
  /** How the `scope` parameter is split (github also takes commas). */
  readonly scopeSeparator: RegExp;
  /** Whether the request asks for a refresh token. */
  readonly offline: (params: RequestParams, scopes: ReadonlyArray<string>) => boolean;
  /** Parameters the provider adds to a successful redirect besides `code` and `state`. */
  readonly callbackExtras?: (grant: CodeGrant) => Readonly<Record<string, string>>;
  /** Parameters the provider adds to an `access_denied` redirect. */
  readonly deniedExtras?: Readonly<Record<string, string>>;
}

const withParams = (target: string, params: Readonly<Record<string, string | undefined>>) => {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
};

const noStore = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

const redirectTo = (location: string, status: 302 | 303) =>
  HttpServerResponse.redirect(location, { status, headers: noStore });

/**
 * The two routes of a dialect's authorization endpoint.
 *
 * @since 0.1.0
 * @category authorization
 */
export const authorizationRoutes = (
  context: DialectContext,
  dialect: AuthorizationDialect,
): ReadonlyArray<HttpLayerRouter.Route<never, never>> => {
  const { provider } = dialect;

  const show = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const routeParams = yield* HttpLayerRouter.params;
    const query = queryParams(request.url);
    if (query.duplicates.length > 0) {
      return errorPage(provider, `Parameter sent more than once: ${query.duplicates.join(", ")}`);
    }
    const client = context.clients[provider];
    if (client === undefined || query.get("client_id") !== client.clientId) {
      return errorPage(provider, "Unknown client_id: no client is registered under this id.");
    }
    const sentRedirect = query.get("redirect_uri");
    if (sentRedirect === undefined && dialect.redirectUriRequired) {
      return errorPage(provider, "redirect_uri is required.");
    }
    if (sentRedirect !== undefined && sentRedirect !== client.redirectUri) {
      return errorPage(
        provider,
        `redirect_uri ${sentRedirect} is not the one registered for this client (${client.redirectUri}).`,
      );
    }
    const state = query.get("state");
    const fail = (error: string, description: string) =>
      redirectTo(
        withParams(client.redirectUri, { error, error_description: description, state }),
        302,
      );
    if (query.get("response_type") !== "code") {
      return fail("unsupported_response_type", "response_type must be code");
    }
    const challenge = query.get("code_challenge");
    if (challenge === undefined) {
      if (dialect.pkce === "required" || isPublicClient(client)) {
        return fail("invalid_request", "code_challenge is required (PKCE S256)");
      }
    } else if (query.get("code_challenge_method") !== "S256" || !isS256Challenge(challenge)) {
      return fail("invalid_request", "Only S256 PKCE challenges are accepted");
    }
    const scopes = (query.get("scope") ?? "")
      .split(dialect.scopeSeparator)
      .filter((scope) => scope !== "");
    const nonce = query.get("nonce");
    const pending: PendingAuthorization = {
      provider,
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      redirectUriSent: sentRedirect !== undefined,
      scopes,
      offline: dialect.offline(query, scopes),
      ...(state === undefined ? {} : { state }),
      ...(challenge === undefined ? {} : { codeChallenge: challenge }),
      ...(nonce === undefined ? {} : { nonce }),
      ...(routeParams.tenant === undefined ? {} : { tenant: routeParams.tenant }),
    };
    const id = yield* context.grants.begin(pending);
    return signInPage({
      provider,
      action: new URL(request.url, context.base).pathname,
      request: id,
      redirectUri: client.redirectUri,
      scopes,
      users: context.users,
    });
  });

  const answer = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest;
    const form = readParams(yield* request.urlParamsBody);
    const taken = yield* context.grants.take(form.get("request") ?? "");
    if (Option.isNone(taken) || taken.value.provider !== provider) {
      return errorPage(provider, "This sign-in request has expired or was already answered.");
    }
    const pending = taken.value;
    if (form.get("cancel") !== undefined) {
      return redirectTo(
        withParams(pending.redirectUri, {
          error: "access_denied",
          ...dialect.deniedExtras,
          state: pending.state,
        }),
        303,
      );
    }
    const user = context.users.find((candidate) => candidate.key === form.get("user"));
    if (user === undefined) return errorPage(provider, "Unknown test user.");
    const grant: CodeGrant = { ...pending, user };
    const code = yield* context.grants.issueCode(grant);
    return redirectTo(
      withParams(pending.redirectUri, {
        code,
        state: pending.state,
        ...dialect.callbackExtras?.(grant),
      }),
      303,
    );
  }).pipe(
    Effect.catchTag("RequestError", () =>
      Effect.succeed(errorPage(provider, "The form could not be read.")),
    ),
  );

  return [
    HttpLayerRouter.route("GET", dialect.path, show),
    HttpLayerRouter.route("POST", dialect.path, answer),
  ];
};
