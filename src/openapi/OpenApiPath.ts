/** `/books/:id` as `/books/{id}` (a `:name(regexp)` parameter keeps its name only). */
export const openApiPath = (path: string): string =>
  path.replace(/:(\w+)(\([^)]*\))?\??/g, "{$1}").replace(/\*$/, "{wildcard}");

/** The names of a route path's parameters, in order. */
export const pathParameterNames = (path: string): ReadonlyArray<string> =>
  [...openApiPath(path).matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
