/**
 * NestJS providers and tokens Strata does not provide. Each is exported under NestJS's name so a
 * port compiles; injecting one fails the start with the message below (what to do instead)
 * rather than "no provider".
 */
const unsupported = new Map<unknown, string>();

/** Declares `token` unsupported, with why and what to use instead. */
const declare = <T>(token: T, message: string): T => {
  unsupported.set(token, message);
  return token;
};

/** The message of an unsupported NestJS token, `undefined` for any other token. */
export const unsupportedToken = (token: unknown): string | undefined => unsupported.get(token);

/**
 * NestJS's `INQUIRER` token, not supported: injecting it fails the start. Give the provider what
 * it needs from its consumer explicitly (a factory, or a parameter of its methods).
 *
 * @since 0.1.0
 * @category dependency injection
 */
export const INQUIRER = declare(
  "INQUIRER",
  "INQUIRER is not supported: Strata builds transient providers without their consumer. Pass what the provider needs explicitly (a useFactory with inject, or a method parameter).",
);

/**
 * NestJS's `LazyModuleLoader`, not supported: Strata compiles the whole module graph at startup.
 * Injecting it fails the start; import the module in `imports` instead.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class LazyModuleLoader {
  static {
    declare(
      LazyModuleLoader,
      "LazyModuleLoader is not supported: Strata compiles the whole module graph at startup. Import the module in the imports of a module instead.",
    );
  }
}

/**
 * NestJS's `ApplicationConfig`, not supported: injecting it fails the start. Configure the app
 * on the app (`app.setGlobalPrefix`, `app.useGlobalPipes`, ...) or through its options.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class ApplicationConfig {
  static {
    declare(
      ApplicationConfig,
      "ApplicationConfig is not supported: configure the app on the app (app.setGlobalPrefix, app.useGlobalPipes...) or with its options.",
    );
  }
}

const DISCOVERY =
  "DiscoveryService is not supported: Strata has no provider discovery. Use Reflector.createDecorator() and read the metadata of the classes you list, or inject the providers.";

/**
 * NestJS's `DiscoveryService`, not supported: Strata has no provider discovery. Read metadata
 * with `Reflector` from the classes you list, or inject the providers. `createDecorator()`
 * throws saying so.
 *
 * @since 0.1.0
 * @category dependency injection
 */
export class DiscoveryService {
  static {
    declare(DiscoveryService, DISCOVERY);
  }

  /** Throws: Strata has no provider discovery (see the class). */
  static createDecorator(): never {
    throw new Error(`DiscoveryService.createDecorator(): ${DISCOVERY}`);
  }
}
