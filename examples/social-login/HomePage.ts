// The demo's one page: sign-in buttons, or the signed-in user, their linked provider accounts,
// buttons to link (and unlink) providers, and a sign-out button. Plain HTML, no script, a
// strict Content-Security-Policy.
import { createHash } from "node:crypto";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type { LinkedAccount } from "effect-strata/accounts";
import type { SupportedProvider } from "effect-strata/oauth";
import type { SignedInUser } from "./MeController.js";

/** A provider button: its name and whether it goes to the development identity provider. */
export interface ProviderButton {
  readonly name: SupportedProvider;
  readonly development: boolean;
}

const labels: { readonly [P in SupportedProvider]: string } = {
  google: "Google",
  microsoft: "Microsoft",
  github: "GitHub",
  facebook: "Facebook",
  twitter: "Twitter",
};

/**
 * The stable error codes of the built-in routes, shown as is (anything else is not echoed). A
 * Map, so a code named like a prototype member (`constructor`) is simply unknown.
 */
const errorText: ReadonlyMap<string, string> = new Map([
  ["provider_error", "the sign-in was cancelled or refused at the provider"],
  ["invalid_state", "the sign-in took too long or was replayed; try again"],
  ["code_rejected", "the provider rejected the code"],
  ["token_response_malformed", "the provider's answer was malformed"],
  ["provider_unreachable", "the provider could not be reached"],
  ["provider_timeout", "the provider took too long"],
  ["profile_fetch_failed", "the profile could not be read"],
  ["callback_handler_failed", "the app could not sign you in"],
  ["account_conflict", "that account is already linked to another user"],
  ["session_required", "sign in before linking an account"],
  ["last_account", "the last linked account cannot be unlinked"],
  ["account_not_linked", "no account of that provider is linked"],
]);

/** The notice of an error code of the page's query (an unknown code is not echoed). */
const notice = (what: string, error: string | undefined) =>
  error === undefined
    ? ""
    : `<p class="error" role="alert">${what} failed: ${escapeHtml(errorText.get(error) ?? "something went wrong")}.</p>`;

const labelOf = (provider: string) =>
  (labels as Readonly<Record<string, string>>)[provider] ?? provider;

const escapeHtml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d1f23}
main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.5rem;margin-top:0}
ul{list-style:none;padding:0}
li{margin:.5rem 0}
.signin{display:block;padding:.7rem 1rem;border:1px solid #d0d4da;border-radius:8px;color:inherit;text-decoration:none;font-weight:600}
.signin:hover,.signin:focus-visible{border-color:#0b5cd5;outline:2px solid #0b5cd5}
.dev{font-weight:normal;font-size:.85rem;color:#666}
.user{display:flex;align-items:center;gap:1rem}
.user img{border-radius:50%}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem .9rem;border-radius:8px}
dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem}
dt{color:#555}
dd{margin:0}
button{font:inherit;padding:.5rem 1rem;border-radius:8px;border:1px solid #d0d4da;background:#fff;cursor:pointer}
.accounts li{display:flex;align-items:center;justify-content:space-between;gap:1rem}
.accounts form{margin:0}
.link{display:inline-block;margin:.2rem .4rem .2rem 0;padding:.4rem .8rem;border:1px solid #d0d4da;border-radius:8px;color:inherit;text-decoration:none}
`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

const html = (body: string, imageOrigins: ReadonlyArray<string>) =>
  HttpServerResponse.text(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Strata social login</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`,
    {
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": [
          "default-src 'none'",
          `style-src 'sha256-${STYLE_HASH}'`,
          `img-src 'self' https:${imageOrigins.map((origin) => ` ${origin}`).join("")}`,
          "form-action 'self'",
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ].join("; "),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
      },
    },
  );

/** The page for a visitor: a sign-in button per configured provider (and an error, if any). */
export const signedOutPage = (
  providers: ReadonlyArray<ProviderButton>,
  error: string | undefined,
  imageOrigins: ReadonlyArray<string>,
) => {
  const buttons = providers
    .map(
      ({ name, development }) =>
        `<li><a class="signin" href="/auth/${name}?errorRedirect=%2F">Sign in with ${labels[name]}${
          development ? ' <span class="dev">(development identity provider)</span>' : ""
        }</a></li>`,
    )
    .join("\n");
  return html(
    `<h1>Strata social login</h1>
${notice("Sign-in", error)}
${providers.length === 0 ? "<p>No provider is configured.</p>" : `<ul>\n${buttons}\n</ul>`}`,
    imageOrigins,
  );
};

/**
 * The page for a signed-in user: who they are, their linked provider accounts (each with an
 * Unlink button while there are several), a Link button per other provider, and a sign-out
 * button (POST forms).
 */
export const signedInPage = (
  user: SignedInUser,
  linked: ReadonlyArray<LinkedAccount>,
  providers: ReadonlyArray<ProviderButton>,
  error: string | undefined,
  imageOrigins: ReadonlyArray<string>,
) => {
  const accounts = linked
    .map(
      (account) =>
        `<li><span>${escapeHtml(labelOf(account.provider))} <span class="dev">${escapeHtml(account.subject)}</span></span>${
          linked.length > 1
            ? `<form method="post" action="/accounts/${encodeURIComponent(account.provider)}/unlink"><button type="submit">Unlink ${escapeHtml(labelOf(account.provider))}</button></form>`
            : ""
        }</li>`,
    )
    .join("\n");
  const isLinked = new Set(linked.map((account) => account.provider));
  const links = providers
    .filter(({ name }) => !isLinked.has(name))
    .map(
      ({ name }) =>
        `<a class="link" href="/auth/${name}?intent=link&amp;errorRedirect=%2F">Link ${labels[name]}</a>`,
    )
    .join("\n");
  return html(
    `<h1>Signed in</h1>
${notice("Linking", error)}
<div class="user">
${user.picture === undefined ? "" : `<img src="${escapeHtml(user.picture)}" alt="" width="64" height="64">`}
<div><strong id="user-name">${escapeHtml(user.name)}</strong><br>${escapeHtml(user.email ?? "no verified email")}</div>
</div>
<dl>
<dt>Signed in with</dt><dd>${escapeHtml(labels[user.provider])}</dd>
<dt>App user id</dt><dd id="user-id">${escapeHtml(user.id)}</dd>
<dt>Role</dt><dd>${escapeHtml(user.role)}</dd>
</dl>
<h2>Linked accounts</h2>
<ul class="accounts" id="linked-accounts">
${accounts}
</ul>
${links === "" ? "" : `<p>${links}</p>`}
<p>You stay signed in across reloads: the session is in an HttpOnly cookie the page never sees
(try <a href="/me">/me</a>). Your user and linked accounts are kept in a database, across
restarts.</p>
<form method="post" action="/auth/logout"><p><button type="submit">Sign out</button></p></form>`,
    imageOrigins,
  );
};
