/**
 * Where `OAuthModule.forRoot` gets its providers: the live ones of its configuration, unless
 * a test replaces the source (`effect-strata/testing`'s `MockProvider.source(...)`).
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as Layer from "effect/Layer";
import type { OAuthConfig } from "./OAuthConfig.js";
import type { OAuthConfigError } from "./OAuthProvider.js";
import { OAuthProviders } from "./OAuthProviders.js";

/**
 * The providers of the classic face, from the module's configuration. A DI token too:
 * `Test.createTestingModule(...).overrideProvider(OAuthProviderSource).useValue(...)` swaps
 * the providers of every `OAuthModule` while the routes, store and handler stay the app's.
 *
 * @since 0.1.0
 * @category classic
 */
export abstract class OAuthProviderSource {
  /** The providers `OAuthModule` serves for `config`, built once at startup. */
  abstract layer(config: OAuthConfig): Layer.Layer<OAuthProviders, OAuthConfigError>;
}

/**
 * The live providers of the configuration (arctic, OpenID Connect discovery), talking to the
 * network through `FetchHttpClient`. The default source of `OAuthModule.forRoot`.
 *
 * @since 0.1.0
 * @category classic
 */
export const liveProviderSource: OAuthProviderSource = {
  layer: (config) => Layer.provide(OAuthProviders.layer(config), FetchHttpClient.layer),
};
