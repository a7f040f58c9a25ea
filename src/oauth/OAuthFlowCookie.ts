/**
 * The cookie of a custom flow (the spec's custom-flow pattern): the `state`, PKCE
 * `codeVerifier` and OpenID `nonce` an app got from `getAuthorizationUrl`, kept in one
 * httpOnly, SameSite=Lax cookie between its own start and callback routes, and read back by
 * `OAuthStateGuard`.
 *
 * @since 0.1.0
 */
import * as Cookies from "@effect/platform/Cookies";
import { signInCookie } from "./SignInCookie.js";

/** The cookie's name (`__Host-` prefixed when secure). @since 0.1.0 @category custom flow */
export const OAUTH_FLOW_COOKIE = "oauth_flow";

/**
 * What a custom flow stores.
 *
 * @since 0.1.0
 * @category custom flow
 */
export interface StoredFlow {
  readonly state: string;
  readonly codeVerifier?: string;
  readonly nonce?: string;
}

const token = /^[A-Za-z0-9_~-]+$/;

/**
 * The `Set-Cookie` value keeping `flow` for 10 minutes: `HttpOnly; SameSite=Lax; Path=/`, and
 * `Secure` with the `__Host-` prefix when `secure` (https).
 *
 * @since 0.1.0
 * @category custom flow
 */
export const flowCookie = (flow: StoredFlow, secure: boolean): string => {
  const { state, codeVerifier, nonce } = flow;
  if (
    !token.test(state) ||
    (codeVerifier !== undefined && !token.test(codeVerifier)) ||
    (nonce !== undefined && !token.test(nonce))
  ) {
    throw new Error("The state, verifier and nonce of a flow cookie must be URL-safe tokens");
  }
  // state[.verifier][.nonce]; with a nonce and no verifier, the verifier's part is empty.
  const value =
    nonce !== undefined
      ? `${state}.${codeVerifier ?? ""}.${nonce}`
      : codeVerifier === undefined
        ? state
        : `${state}.${codeVerifier}`;
  return signInCookie(OAUTH_FLOW_COOKIE, value, 600, secure);
};

/**
 * The `Set-Cookie` value clearing the flow cookie (do it on every callback outcome).
 *
 * @since 0.1.0
 * @category custom flow
 */
export const clearFlowCookie = (secure: boolean): string =>
  signInCookie(OAUTH_FLOW_COOKIE, "", 0, secure);

/**
 * The flow stored in a request's `Cookie` header (the `__Host-` cookie first), if any.
 *
 * @since 0.1.0
 * @category custom flow
 */
export const readFlowCookie = (cookieHeader: unknown): StoredFlow | undefined => {
  if (typeof cookieHeader !== "string" || cookieHeader === "") return undefined;
  const cookies = Cookies.parseHeader(cookieHeader);
  const hostValue = Object.hasOwn(cookies, `__Host-${OAUTH_FLOW_COOKIE}`)
    ? cookies[`__Host-${OAUTH_FLOW_COOKIE}`]
    : undefined;
  const value =
    hostValue ??
    (Object.hasOwn(cookies, OAUTH_FLOW_COOKIE) ? cookies[OAUTH_FLOW_COOKIE] : undefined);
  if (value === undefined || value === "") return undefined;
  const [state, codeVerifier, nonce, ...rest] = value.split(".");
  if (rest.length > 0 || state === "" || !token.test(state)) return undefined;
  if (codeVerifier === undefined) return { state };
  if (nonce === undefined) return token.test(codeVerifier) ? { state, codeVerifier } : undefined;
  if (!token.test(nonce) || (codeVerifier !== "" && !token.test(codeVerifier))) return undefined;
  return codeVerifier === "" ? { state, nonce } : { state, codeVerifier, nonce };
};
