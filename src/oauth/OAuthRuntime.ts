/**
 * The Effect services behind the classic face: `OAuthModule` builds them once per app (in
 * their own scope, closed on shutdown) and `OAuthService` runs the pipeline on them.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";
import { OAuth } from "./OAuth.js";
import type { OAuthCallbackHandler } from "./OAuthCallbackHandler.js";
import { toRedacted } from "./OAuthConfig.js";
import type { OAuthModuleOptions } from "./OAuthModuleOptions.js";
import type { OAuthConfigError } from "./OAuthProvider.js";
import { liveProviderSource, type OAuthProviderSource } from "./OAuthProviderSource.js";
import * as RedisTransactionStore from "./RedisTransactionStore.js";
import { TransactionSealer } from "./TransactionSealer.js";
import { TransactionStore } from "./TransactionStore.js";

/** Runs `call` with the app's callback handler instance (resolved through DI). */
export type HandlerRunner = (
  call: (handler: OAuthCallbackHandler) => unknown,
) => Effect.Effect<unknown, unknown>;

/** The services of the pipeline as a Layer, from the module options and a provider source. */
const runtimeLayer = (
  options: OAuthModuleOptions,
  source: OAuthProviderSource = liveProviderSource,
): Layer.Layer<OAuth | TransactionStore, OAuthConfigError | StartupError> => {
  // Without the built-in routes nothing is stored: no sealing key is needed (nor warned
  // about), no Redis connection opened.
  const chosen = options.transactionStore;
  const limits =
    options.maxTransactionsPerClient === undefined
      ? {}
      : { maxPerClient: options.maxTransactionsPerClient };
  const store: Layer.Layer<TransactionStore, OAuthConfigError | StartupError> =
    chosen === "memory" || options.routes === false
      ? TransactionStore.layerMemoryWith(limits)
      : typeof chosen === "object"
        ? RedisTransactionStore.layer({ ...chosen.redis, ...limits })
        : Layer.provide(
            TransactionStore.layerCookieWith(limits),
            TransactionSealer.layer(
              options.sealingKey === undefined ? undefined : toRedacted(options.sealingKey),
            ),
          );
  const oauth = Layer.provide(
    OAuth.layerFromProviders,
    source.layer({
      providers: options.providers,
      ...(options.defaultScopes === undefined ? {} : { defaultScopes: options.defaultScopes }),
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      ...(options.maxProfileBytes === undefined
        ? {}
        : { maxProfileBytes: options.maxProfileBytes }),
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    }),
  );
  return Layer.merge(oauth, store);
};

/**
 * The built services of one app's `OAuthModule`, and its callback handler once the app has
 * resolved it.
 *
 * @since 0.1.0
 * @category classic
 */
export class OAuthRuntime {
  /** Set at startup when a `callbackHandler` is configured. */
  handler: HandlerRunner | undefined;

  constructor(
    readonly context: Context.Context<OAuth | TransactionStore>,
    readonly options: OAuthModuleOptions,
    private readonly scope: Scope.CloseableScope,
  ) {}

  /** Builds the services in a scope of their own (providers from `source`, the live ones by default). */
  static make(
    options: OAuthModuleOptions,
    source?: OAuthProviderSource,
  ): Effect.Effect<OAuthRuntime, OAuthConfigError | StartupError> {
    return Effect.gen(function* () {
      const scope = yield* Scope.make();
      const context = yield* Layer.buildWithScope(runtimeLayer(options, source), scope).pipe(
        Effect.tapErrorCause((cause) => Scope.close(scope, Exit.failCause(cause))),
      );
      return new OAuthRuntime(context, options, scope);
    });
  }

  /** The pipeline. */
  get oauth(): typeof OAuth.Service {
    return Context.get(this.context, OAuth);
  }

  /** Releases the services when the app closes. */
  onModuleDestroy(): Effect.Effect<void> {
    return Scope.close(this.scope, Exit.void);
  }
}
