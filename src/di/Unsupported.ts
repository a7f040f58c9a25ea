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
