// Mocked provider Layers for the pipeline: no arctic, no network.
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import {
  CodeRejected,
  defaultScopes,
  OAuthProvider,
  type OAuthProviderService,
  type SupportedProvider,
  usesPkce,
} from "../../../src/oauth/index.js";
import { REDIRECT } from "../fixtures.js";

/** Every exchange and profile fetch a mock saw. */
export interface MockCalls {
  readonly exchanges: Array<{ code: string; codeVerifier?: string; nonce?: string }>;
  readonly profiles: number;
}

/** A provider that accepts the code `good` and answers a fixed user. */
export const mockProvider = (
  name: SupportedProvider,
  overrides: Partial<OAuthProviderService> = {},
  calls: MockCalls = { exchanges: [], profiles: 0 },
): OAuthProviderService =>
  OAuthProvider.of({
    name,
    pkce: usesPkce(name),
    oidc: name === "google" || name === "microsoft",
    redirectUri: REDIRECT(name),
    defaultScopes: defaultScopes[name],
    acceptsIssuer: (iss) => iss === `https://${name}.example`,
    authorizationUrl: (request) =>
      Effect.sync(() => {
        const url = new URL(`https://${name}.example/authorize`);
        url.searchParams.set("state", request.state);
        url.searchParams.set("scope", request.scopes.join(" "));
        if (request.codeVerifier !== undefined) url.searchParams.set("code_challenge", "c");
        if (request.nonce !== undefined) url.searchParams.set("nonce", request.nonce);
        if (request.offline === true) url.searchParams.set("offline", "1");
        return url;
      }),
    exchangeCode: (exchange) =>
      Effect.suspend(() => {
        calls.exchanges.push({ ...exchange });
        return exchange.code === "good"
          ? Effect.succeed({
              accessToken: Redacted.make(`${name}-access`),
              refreshToken: Redacted.make(`${name}-refresh`),
              expiresAt: new Date(Date.UTC(2030, 0, 1)),
            })
          : Effect.fail(new CodeRejected({ provider: name, oauthError: "invalid_grant" }));
      }),
    fetchProfile: () =>
      Effect.sync(() => {
        (calls as { profiles: number }).profiles++;
        return { id: `${name}-user`, email: `${name}@example.com`, name: "Mock User" };
      }),
    ...overrides,
  });

/** A Layer of one mocked provider. */
export const mockProviderLayer = (
  name: SupportedProvider,
  overrides?: Partial<OAuthProviderService>,
  calls?: MockCalls,
) => Layer.succeed(OAuthProvider, mockProvider(name, overrides, calls));
