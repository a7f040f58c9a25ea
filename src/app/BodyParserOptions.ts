/**
 * NestJS's `app.useBodyParser(type, options)`, read as a size limit of Strata's own parsers.
 *
 * @since 0.1.0
 */

/**
 * Options of `app.useBodyParser(type, options)`: the `limit` of body-parser's, in bytes or as
 * `"100kb"`, `"1mb"`, `"1gb"` (1024-based, as body-parser reads them). urlencoded's `extended`
 * is taken too, though Strata's form parser stays flat.
 *
 * @since 0.1.0
 * @category app
 */
export interface BodyParserOptions {
  /** The largest body of the type, in bytes or `"<n>b|kb|mb|gb"`; larger ones get 413. */
  readonly limit?: number | string;
  /** body-parser's urlencoded `extended`: accepted, but forms are parsed flat either way. */
  readonly extended?: boolean;
}

const bodyTypes: ReadonlySet<string> = new Set(["json", "urlencoded", "text", "raw"]);
const units: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `limit` in bytes, or `undefined` when it is no size. */
const bytesOf = (limit: number | string): number | undefined => {
  if (typeof limit === "number") {
    return Number.isSafeInteger(limit) && limit >= 0 ? limit : undefined;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (match === null) return undefined;
  return Math.floor(Number(match[1]) * (units[(match[2] ?? "b").toLowerCase()] ?? 1));
};

/**
 * The size limit `useBodyParser(type, options)` sets, in bytes (the default when `options`
 * gives none); throws saying why for a type Strata does not parse, an option it does not take,
 * or a limit that is no size.
 *
 * @since 0.1.0
 * @category app
 */
export const bodyParserLimit = (
  type: string,
  options: BodyParserOptions,
  otherwise: number,
): number => {
  if (!bodyTypes.has(type)) {
    throw new Error(
      `app.useBodyParser(${JSON.stringify(type)}): Strata parses json, urlencoded, text and raw (any other type) bodies`,
    );
  }
  const unknown = Object.keys(options).filter(
    (key) => key !== "limit" && !(key === "extended" && type === "urlencoded"),
  );
  if (unknown.length > 0) {
    throw new Error(
      `app.useBodyParser(${JSON.stringify(type)}): only the limit option is taken (Strata parses bodies itself), not ${unknown.map((k) => JSON.stringify(k)).join(", ")}`,
    );
  }
  if (options.limit === undefined) return otherwise;
  const bytes = bytesOf(options.limit);
  if (bytes === undefined) {
    throw new Error(
      `app.useBodyParser(${JSON.stringify(type)}): limit ${JSON.stringify(options.limit)} is not a size (bytes, or like "100kb", "1mb")`,
    );
  }
  return bytes;
};
