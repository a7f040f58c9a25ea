/**
 * Authorization URLs from templates. A provider builds its URL through arctic (a `URL`, its
 * search parameters set one by one, a SHA-256 in JavaScript for PKCE): a third of the cost of
 * `GET /auth/:provider`. For a given provider, scope list and options, only the state, the
 * PKCE challenge and the nonce change from one URL to the next, so the provider builds the URL
 * once with marker values, the markers' places become slots, and each authorization fills them.
 *
 * A template is used only when it provably gives what the provider gives: it is checked against
 * a second build with other markers, and values are filled in only when they are base64url (the
 * form every token and hash here has, which URL encoding leaves as is). Otherwise the provider
 * builds every URL itself.
 *
 * @since 0.1.0
 */
import { createHash, randomBytes } from "node:crypto";
import * as Effect from "effect/Effect";
import type { AuthorizationRequest, OAuthProviderService } from "./OAuthProvider.js";

/** The values that change from one authorization URL to the next. */
interface Slots {
  readonly state: string;
  /** The PKCE S256 challenge of the request's verifier. */
  readonly challenge: string;
  readonly nonce: string;
}

/** A URL as fixed text between slots. */
interface Template {
  readonly text: ReadonlyArray<string>;
  readonly slots: ReadonlyArray<keyof Slots>;
}

const base64url = /^[A-Za-z0-9_-]+$/;

/** The PKCE S256 challenge (RFC 7636 4.2). */
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** Templates kept per provider, beyond which URLs are built directly. */
const MAX_TEMPLATES = 32;

const fill = (template: Template, slots: Slots): string => {
  let url = template.text[0];
  for (let i = 0; i < template.slots.length; i++) {
    url += slots[template.slots[i]] + template.text[i + 1];
  }
  return url;
};

/** The template of `url`, built with the marker values `slots`; `undefined` if the state is not once in it. */
const templateOf = (url: string, slots: Slots): Template | undefined => {
  const found: Array<{ readonly at: number; readonly slot: keyof Slots }> = [];
  for (const slot of ["state", "challenge", "nonce"] as const) {
    const at = url.indexOf(slots[slot]);
    if (at === -1) continue;
    if (url.indexOf(slots[slot], at + 1) !== -1) return undefined;
    found.push({ at, slot });
  }
  if (!found.some(({ slot }) => slot === "state")) return undefined;
  found.sort((a, b) => a.at - b.at);
  const text: Array<string> = [];
  let from = 0;
  for (const { at, slot } of found) {
    text.push(url.slice(from, at));
    from = at + slots[slot].length;
  }
  text.push(url.slice(from));
  return { text, slots: found.map(({ slot }) => slot) };
};

const markers = (): Slots & { readonly verifier: string } => {
  const verifier = randomBytes(32).toString("base64url");
  return {
    state: randomBytes(24).toString("base64url"),
    verifier,
    challenge: s256(verifier),
    nonce: randomBytes(24).toString("base64url"),
  };
};

/**
 * The authorization URLs of `provider` as text, from templates where they are exact.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const authorizationUrls = (
  provider: OAuthProviderService,
): ((request: AuthorizationRequest) => Effect.Effect<string>) => {
  const templates = new Map<string, Template | null>();
  const build = (request: AuthorizationRequest) =>
    Effect.map(provider.authorizationUrl(request), (url) => url.toString());
  const withMarkers = (request: AuthorizationRequest, m: ReturnType<typeof markers>) => ({
    ...request,
    state: m.state,
    ...(request.codeVerifier === undefined ? {} : { codeVerifier: m.verifier }),
    ...(request.nonce === undefined ? {} : { nonce: m.nonce }),
  });
  /** The template for requests like `request`, made and checked on first use. */
  const templateFor = (key: string, request: AuthorizationRequest) => {
    const known = templates.get(key);
    if (known !== undefined || templates.size >= MAX_TEMPLATES) {
      return Effect.succeed(known ?? undefined);
    }
    const first = markers();
    const second = markers();
    return Effect.map(
      Effect.all([build(withMarkers(request, first)), build(withMarkers(request, second))]),
      ([url, check]) => {
        const template = templateOf(url, first);
        const exact = template !== undefined && fill(template, second) === check;
        templates.set(key, exact ? template : null);
        return exact ? template : undefined;
      },
    );
  };
  return (request) => {
    if (!base64url.test(request.state)) return build(request);
    const key = JSON.stringify([
      request.scopes,
      request.codeVerifier !== undefined,
      request.nonce !== undefined,
      request.offline === true,
    ]);
    return Effect.flatMap(templateFor(key, request), (template) =>
      template === undefined
        ? build(request)
        : Effect.succeed(
            fill(template, {
              state: request.state,
              challenge: request.codeVerifier === undefined ? "" : s256(request.codeVerifier),
              nonce: request.nonce ?? "",
            }),
          ),
    );
  };
};
