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
import { hash, randomBytes } from "node:crypto";
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
const s256 = (verifier: string) => hash("sha256", verifier, "base64url");

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

/** A template known for one shape of request; `null` when the provider's URLs are no template. */
interface Known {
  readonly scopes: ReadonlyArray<string>;
  readonly shape: number;
  readonly template: Template | null;
}

/** What besides the scopes shapes a URL: one bit each for a verifier, a nonce and `offline`. */
const shapeOf = (request: AuthorizationRequest): number =>
  (request.codeVerifier === undefined ? 0 : 1) |
  (request.nonce === undefined ? 0 : 2) |
  (request.offline === true ? 4 : 0);

const sameScopes = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/**
 * The authorization URLs of a provider as text.
 *
 * @since 0.1.0
 * @category pipeline
 */
export interface AuthorizationUrls {
  /** The URL of `request`; the first request of its shape makes and checks the template. */
  readonly url: (request: AuthorizationRequest) => Effect.Effect<string>;
  /** The URL of `request` from a template already known for it, at once; else `undefined`. */
  readonly known: (request: AuthorizationRequest) => string | undefined;
}

/**
 * The authorization URLs of `provider` as text, from templates where they are exact.
 *
 * @since 0.1.0
 * @category pipeline
 */
export const authorizationUrls = (provider: OAuthProviderService): AuthorizationUrls => {
  // A few entries at most (one per scope list and shape asked for): a scan beats a string key.
  const templates: Array<Known> = [];
  const find = (request: AuthorizationRequest, shape: number) => {
    for (const known of templates) {
      if (known.shape === shape && sameScopes(known.scopes, request.scopes)) return known;
    }
    return undefined;
  };
  const build = (request: AuthorizationRequest) =>
    Effect.map(provider.authorizationUrl(request), (url) => url.toString());
  const withMarkers = (request: AuthorizationRequest, m: ReturnType<typeof markers>) => ({
    ...request,
    state: m.state,
    ...(request.codeVerifier === undefined ? {} : { codeVerifier: m.verifier }),
    ...(request.nonce === undefined ? {} : { nonce: m.nonce }),
  });
  const filled = (template: Template, request: AuthorizationRequest) =>
    fill(template, {
      state: request.state,
      challenge: request.codeVerifier === undefined ? "" : s256(request.codeVerifier),
      nonce: request.nonce ?? "",
    });
  /** Makes and checks the template for requests like `request`, and remembers it. */
  const learn = (request: AuthorizationRequest, shape: number) => {
    // Its own copy of the scopes: what the caller does with its list later changes nothing.
    const like = { ...request, scopes: [...request.scopes] };
    const first = markers();
    const second = markers();
    return Effect.map(
      Effect.all([build(withMarkers(like, first)), build(withMarkers(like, second))]),
      ([url, check]) => {
        const template = templateOf(url, first);
        const exact = template !== undefined && fill(template, second) === check;
        if (templates.length < MAX_TEMPLATES && find(like, shape) === undefined) {
          templates.push({ scopes: like.scopes, shape, template: exact ? template : null });
        }
        return exact ? template : undefined;
      },
    );
  };
  return {
    url: (request) => {
      if (!base64url.test(request.state)) return build(request);
      const shape = shapeOf(request);
      const known = find(request, shape);
      if (known !== undefined) {
        return known.template === null
          ? build(request)
          : Effect.succeed(filled(known.template, request));
      }
      if (templates.length >= MAX_TEMPLATES) return build(request);
      return Effect.flatMap(learn(request, shape), (template) =>
        template === undefined ? build(request) : Effect.succeed(filled(template, request)),
      );
    },
    known: (request) => {
      if (!base64url.test(request.state)) return undefined;
      const known = find(request, shapeOf(request));
      return known === undefined || known.template === null
        ? undefined
        : filled(known.template, request);
    },
  };
};
