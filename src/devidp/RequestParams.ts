/**
 * Query and form parameters read strictly: a parameter sent twice is reported, never
 * silently resolved (RFC 6749 3.1, 3.2), and names are looked up in a `Map` (no prototype
 * keys).
 *
 * @since 0.1.0
 */

/**
 * Single-valued parameters and the names that came more than once.
 *
 * @since 0.1.0
 * @category params
 */
export interface RequestParams {
  /** The value of `name`; `undefined` when absent or empty. */
  readonly get: (name: string) => string | undefined;
  /** Names sent more than once. */
  readonly duplicates: ReadonlyArray<string>;
}

/**
 * Reads parameters from `[name, value]` pairs (a `URLSearchParams`, form fields).
 *
 * @since 0.1.0
 * @category params
 */
export const readParams = (entries: Iterable<readonly [string, string]>): RequestParams => {
  const values = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const [name, value] of entries) {
    if (values.has(name)) duplicates.add(name);
    else values.set(name, value);
  }
  return {
    get: (name) => {
      const value = values.get(name);
      return value === undefined || value === "" ? undefined : value;
    },
    duplicates: [...duplicates],
  };
};

/** The parameters of a URL's query. @since 0.1.0 @category params */
export const queryParams = (url: string): RequestParams =>
  readParams(new URL(url, "http://devidp.invalid").searchParams);
