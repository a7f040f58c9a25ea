/**
 * The vocabulary of API versioning both faces share: where a request names its version
 * (`VersioningType`), the versions a route answers (`VersionId`, `VERSION_NEUTRAL`) and an app's
 * `VersioningOptions`.
 *
 * @since 0.1.0
 */
/**
 * Where a request names its version: `URI` (`/v1/users`), `HEADER` (`X-API-Version: 1`),
 * `MEDIA_TYPE` (`Accept: application/vnd.strata.v1+json`, or `application/json;v=1`) or
 * `CUSTOM` (the app's `extractor` reads it).
 *
 * @since 0.1.0
 * @category versioning
 */
export enum VersioningType {
  URI = "uri",
  HEADER = "header",
  MEDIA_TYPE = "media_type",
  CUSTOM = "custom",
}

/**
 * What a `CUSTOM` versioning `extractor` reads the version from: the request's method, URL,
 * headers (lower-case names) and `header(name)`, as NestJS's extractor calls it on Express's.
 *
 * @since 0.1.0
 * @category versioning
 */
export interface VersionRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The value of header `name` (any case). */
  header(name: string): string | undefined;
}

/**
 * The version of a route that answers any version, and requests naming none.
 *
 * @since 0.1.0
 * @category versioning
 */
export const VERSION_NEUTRAL: unique symbol = Symbol.for("effect-strata/VERSION_NEUTRAL");

/** One version: a string such as `"1"`, or {@link VERSION_NEUTRAL}. @since 0.1.0 @category versioning */
export type VersionId = string | typeof VERSION_NEUTRAL;

/** What `@Version` and `ControllerOptions.version` accept: one version or several. @since 0.1.0 @category versioning */
export type VersionValue = VersionId | ReadonlyArray<VersionId>;

/**
 * Versioning of an app (`new StrataApp(AppModule, { versioning })`, or `Versioning.add`).
 *
 * @since 0.1.0
 * @category versioning
 */
export interface VersioningOptions {
  readonly type: VersioningType | `${VersioningType}`;
  /**
   * The version of routes that declare none; without it, such routes are version-neutral. A
   * request naming no version (HEADER, MEDIA_TYPE, CUSTOM) reaches only version-neutral
   * routes, as in NestJS.
   */
  readonly defaultVersion?: VersionValue;
  /** HEADER: the request header naming the version (default `X-API-Version`). */
  readonly header?: string;
  /** URI: the segment prefix before the version (default `v`, as in `/v1/users`). */
  readonly prefix?: string;
  /** MEDIA_TYPE: the vendor of `application/vnd.<vendor>.v1+json` (default `strata`). */
  readonly vendor?: string;
  /**
   * CUSTOM (required there): the version(s) a request asks for, in order of preference; the
   * first that a handler declares wins. `undefined` or an empty list: the request names none.
   */
  readonly extractor?: (request: VersionRequest) => string | ReadonlyArray<string> | undefined;
}

/** The HTTP methods a versioned route can answer. @since 0.1.0 @category versioning */
export type VersionedMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "*";
