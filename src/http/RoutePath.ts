/**
 * Joins a controller prefix and a method path into one route path: `users` and `/users` are
 * the same prefix, empty parts vanish, and the result always starts with `/`.
 */
export const joinRoutePath = (...parts: ReadonlyArray<string>): `/${string}` => {
  const segments = parts.flatMap((part) => part.split("/")).filter((segment) => segment !== "");
  return `/${segments.join("/")}`;
};
