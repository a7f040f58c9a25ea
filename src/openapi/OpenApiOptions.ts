import type * as HttpApi from "@effect/platform/HttpApi";
import type * as HttpApiScalar from "@effect/platform/HttpApiScalar";
import type * as OpenApi from "@effect/platform/OpenApi";
import type { Info, SecurityScheme, Server } from "./OpenApiDocument.js";

/**
 * The API description of an app: `GET /openapi.json` (OpenAPI 3.1) and an interactive page at
 * `/docs` (Scalar, served by the app itself: no CDN, `script-src 'self'`). Both faces take it:
 * `new StrataApp(AppModule, { openapi: {...} })` or `OpenApiDocs.layer({...})`.
 *
 * @since 0.1.0
 * @category openapi
 */
export interface OpenApiOptions {
  /** Where the document is served (default `/openapi.json`). */
  readonly path?: `/${string}`;
  /** Where the docs page is served (default `/docs`; its script under `<docsPath>/scalar.js`); `false`: no page. */
  readonly docsPath?: `/${string}` | false;
  /**
   * The document's `info`. A field left out comes from the first of `apis` that states it
   * (`OpenApi.Title`, `Version`, `Description`, `Summary`, `License` annotations). A title or
   * version no API states: `OpenApi.fromApi`'s (`Api`, `0.0.1`) in a document of `HttpApi`s only
   * (`OpenApiDocs`), as `fromApi` writes it; else title `API`, version `1.0.0`.
   */
  readonly info?: Partial<Info>;
  /**
   * The document's `servers`. Default: those the `apis` declare (`OpenApi.Servers`), else none
   * (the app's own origin).
   */
  readonly servers?: ReadonlyArray<Server>;
  /**
   * Whether object Schemas admit properties they do not declare, as `OpenApi.fromApi`'s option:
   * `"strict"` (default: `additionalProperties: false`) or `"allow"`. Applies to the whole
   * document, the classic routes' Schemas and the `apis`'.
   */
  readonly additionalPropertiesStrategy?: OpenApi.AdditionalPropertiesStrategy;
  /** Security schemes `@ApiSecurity` requirements may name. */
  readonly securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  /** `HttpApi`s served beside the routes (Effect face), described in the same document. */
  readonly apis?: ReadonlyArray<HttpApi.HttpApi.Any>;
  /** Options of the Scalar page (theme, layout, ...). */
  readonly scalar?: HttpApiScalar.ScalarConfig;
}

/** Where the document is served by default. @since 0.1.0 @category openapi */
export const DEFAULT_OPENAPI_PATH = "/openapi.json";
/** Where the docs page is served by default. @since 0.1.0 @category openapi */
export const DEFAULT_DOCS_PATH = "/docs";

/**
 * The docs page's policy: its own script and the document only (no inline script, no
 * JavaScript eval, no other origin: it works offline). Scalar compiles WebAssembly
 * (`'wasm-unsafe-eval'`) and sets inline styles, which are allowed.
 *
 * @since 0.1.0
 * @category openapi
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
