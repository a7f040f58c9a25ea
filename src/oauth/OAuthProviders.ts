/**
 * The providers the pipeline serves, by name: built from configuration with the live
 * providers (arctic for the five built-in ones, the generic OpenID Connect provider for
 * `type: "oidc"` entries), or from any provider Layers (mocks in tests).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import { configuredProviders, isOidcConfig, type OAuthConfig, settingsFor } from "./OAuthConfig.js";
import { OAuthConfigError, OAuthProvider, type OAuthProviderService } from "./OAuthProvider.js";
import * as facebook from "./providers/facebook.js";
import * as github from "./providers/github.js";
import * as google from "./providers/google.js";
import * as microsoft from "./providers/microsoft.js";
import * as oidc from "./providers/oidc.js";
import * as twitter from "./providers/twitter.js";
import {
  isCustomProviderName,
  isSupportedProvider,
  type ProviderName,
  supportedProviders,
} from "./SupportedProvider.js";

/**
 * The configured providers.
 *
 * @since 0.1.0
 * @category providers
 */
export interface OAuthProvidersService {
  /** The configured provider names: the built-in ones in a fixed order, then the others. */
  readonly names: ReadonlyArray<ProviderName>;
  /** The provider called `name`; `None` for anything else (`__proto__` included). */
  readonly get: (name: string) => Option.Option<OAuthProviderService>;
}

/** The Layers of some providers, by name. @since 0.1.0 @category providers */
export type ProviderLayers<E, R> = {
  readonly [name: string]: Layer.Layer<OAuthProvider, E, R> | undefined;
};

/** `true` for a name a provider may have: a built-in one, or a valid custom one. */
const isProviderName = (name: string): boolean =>
  isSupportedProvider(name) || isCustomProviderName(name);

/**
 * The providers the OAuth pipeline serves.
 *
 * @since 0.1.0
 * @category providers
 */
export class OAuthProviders extends Context.Tag("effect-strata/oauth/OAuthProviders")<
  OAuthProviders,
  OAuthProvidersService
>() {
  /** A registry of ready provider services. */
  static readonly make = (
    providers: ReadonlyArray<OAuthProviderService>,
  ): OAuthProvidersService => {
    const byName = new Map<string, OAuthProviderService>();
    for (const provider of providers) {
      if (isProviderName(provider.name)) byName.set(provider.name, provider);
    }
    const names = [...byName.keys()];
    return {
      names: [
        ...supportedProviders.filter((name) => byName.has(name)),
        ...names.filter((name) => !isSupportedProvider(name)),
      ],
      get: (name) => Option.fromNullable(byName.get(name)),
    };
  };

  /**
   * The registry of the given provider Layers, each built on its own (so a test can mix live
   * and mocked providers, or give each a differently configured `HttpClient`).
   */
  static readonly fromLayers = <E, R>(
    layers: ProviderLayers<E, R>,
  ): Layer.Layer<OAuthProviders, E, R> =>
    Layer.scoped(
      OAuthProviders,
      Effect.map(
        Effect.forEach(
          Object.entries(layers).filter(([name, layer]) => isProviderName(name) && layer),
          ([, layer]) =>
            Effect.map(Layer.build(layer as Layer.Layer<OAuthProvider, E, R>), (context) =>
              Context.get(context, OAuthProvider),
            ),
        ),
        OAuthProviders.make,
      ),
    );

  /**
   * The live providers of `config` (arctic underneath, or OpenID Connect discovery; profiles
   * and discovery through the `HttpClient`).
   */
  static readonly layer = (
    config: OAuthConfig,
  ): Layer.Layer<OAuthProviders, OAuthConfigError, HttpClient.HttpClient> => {
    const unknown = Object.entries(config.providers).filter(
      ([name, entry]) =>
        entry != null &&
        (isSupportedProvider(name)
          ? isOidcConfig(entry)
          : !isCustomProviderName(name) || !isOidcConfig(entry)),
    );
    return unknown.length > 0
      ? Layer.fail(
          new OAuthConfigError({
            message: `Unknown OAuth provider(s) in the configuration: ${unknown.map(([name]) => name).join(", ")} (built-in: google, microsoft, github, facebook, twitter; any other name needs type: "oidc" and lower-case letters, digits, - or _)`,
          }),
        )
      : OAuthProviders.fromLayers(liveLayers(config));
  };
}

const liveLayers = (
  config: OAuthConfig,
): ProviderLayers<OAuthConfigError, HttpClient.HttpClient> => {
  const layers: Record<
    string,
    Layer.Layer<OAuthProvider, OAuthConfigError, HttpClient.HttpClient>
  > = {};
  const { providers } = config;
  for (const name of configuredProviders(providers)) {
    const settings = settingsFor(config, name);
    switch (name) {
      case "google":
        if (providers.google) layers.google = google.layer(providers.google, settings);
        break;
      case "microsoft":
        if (providers.microsoft) layers.microsoft = microsoft.layer(providers.microsoft, settings);
        break;
      case "github":
        if (providers.github) layers.github = github.layer(providers.github, settings);
        break;
      case "facebook":
        if (providers.facebook) layers.facebook = facebook.layer(providers.facebook, settings);
        break;
      case "twitter":
        if (providers.twitter) layers.twitter = twitter.layer(providers.twitter, settings);
        break;
    }
  }
  for (const [name, entry] of Object.entries(providers)) {
    if (isCustomProviderName(name) && isOidcConfig(entry)) {
      layers[name] = oidc.layer(name, entry, settingsFor(config, name));
    }
  }
  return layers;
};
