/**
 * The sign-in page: which app asks, for which scopes, and a button per test user (plus
 * Cancel, which answers `access_denied` as a user refusing consent would). The error page for
 * requests that must not be redirected (unknown client, unregistered redirect URI).
 *
 * @since 0.1.0
 */
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type { SupportedProvider } from "../oauth/SupportedProvider.js";
import { escapeHtml } from "../sanitize/escapeHtml.js";
import type { DevUser } from "./DevUser.js";
import { page } from "./Html.js";

/** Display names of the dialects. @since 0.1.0 @category page */
const providerLabel: { readonly [P in SupportedProvider]: string } = {
  google: "Google",
  microsoft: "Microsoft",
  github: "GitHub",
  facebook: "Facebook",
  twitter: "Twitter",
};

const BADGE = "Development identity provider";

/**
 * The sign-in page of a waiting authorization request.
 *
 * @since 0.1.0
 * @category page
 */
export const signInPage = (options: {
  readonly provider: SupportedProvider;
  /** The path the form posts back to (the authorization endpoint). */
  readonly action: string;
  /** The id of the waiting request. */
  readonly request: string;
  readonly redirectUri: string;
  readonly scopes: ReadonlyArray<string>;
  readonly users: ReadonlyArray<DevUser>;
}): HttpServerResponse.HttpServerResponse => {
  const label = providerLabel[options.provider];
  const app = new URL(options.redirectUri);
  const scopes =
    options.scopes.length === 0
      ? "no scope"
      : options.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(" ");
  const users = options.users
    .map(
      (user) => `<li><button class="user" type="submit" name="user" value="${escapeHtml(user.key)}">
<img src="/avatars/${encodeURIComponent(user.key)}.svg" alt="" width="40" height="40">
<span><span class="name">Continue as ${escapeHtml(user.name)}</span>
<span class="email">${escapeHtml(user.email)}${user.emailVerified ? "" : " (unverified)"}</span></span>
</button></li>`,
    )
    .join("\n");
  return page({
    title: `Sign in with ${label} (development)`,
    formTargets: [app.origin],
    body: `<p class="badge">${BADGE} · not the real ${label}</p>
<h1>Sign in with ${label}</h1>
<p>to continue to <strong>${escapeHtml(app.host)}</strong>, which asks for ${scopes}.</p>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="request" value="${escapeHtml(options.request)}">
<ul aria-label="Test users">
${users}
</ul>
<button class="cancel" type="submit" name="cancel" value="1">Cancel</button>
</form>`,
  });
};

/**
 * An error shown to the user instead of a redirect (RFC 6749 4.1.2.1: never redirect to an
 * unverified redirect URI).
 *
 * @since 0.1.0
 * @category page
 */
export const errorPage = (
  provider: SupportedProvider,
  message: string,
  status = 400,
): HttpServerResponse.HttpServerResponse =>
  page({
    title: `${providerLabel[provider]} (development): error`,
    status,
    body: `<p class="badge">${BADGE}</p>
<h1>This sign-in request cannot go on</h1>
<p role="alert">${escapeHtml(message)}</p>`,
  });
