/**
 * The `Set-Cookie` header of the cookies that carry a sign-in from its start to its callback
 * (the transaction cookie, a custom flow's cookie; SECURITY.md 13): `HttpOnly; SameSite=Lax;
 * Path=/`, plus `Secure` and the `__Host-` prefix on https, written in the order the
 * platform's cookie serializer writes them. Lax, not Strict: the callback is a cross-site
 * top-level GET.
 *
 * @since 0.1.0
 */

/** The cookie's name: `name`, or `__Host-name` on https. @since 0.1.0 @category cookie */
export const signInCookieName = (name: string, secure: boolean): string =>
  secure ? `__Host-${name}` : name;

/**
 * The `Set-Cookie` value keeping `value` (cookie-safe, checked by the caller) for `maxAge`
 * seconds; `maxAge` 0 clears it.
 *
 * @since 0.1.0
 * @category cookie
 */
export const signInCookie = (
  name: string,
  value: string,
  maxAge: number,
  secure: boolean,
): string =>
  `${signInCookieName(name, secure)}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly${secure ? "; Secure" : ""}; SameSite=Lax`;
