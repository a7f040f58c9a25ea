/** How a request names the version it asks for, under each `VersioningType` but `URI`. */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import { type VersioningOptions, VersioningType } from "../VersioningOptions.js";

const headerVersion = (name: string) => {
  const key = name.toLowerCase();
  return (request: HttpServerRequest.HttpServerRequest): string | undefined => {
    const value = request.headers[key]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
};

const mediaTypeVersion = (vendor: string) => {
  const prefix = `application/vnd.${vendor.toLowerCase()}.v`;
  return (request: HttpServerRequest.HttpServerRequest): string | undefined => {
    const accept = request.headers.accept;
    if (accept === undefined) return undefined;
    for (const range of accept.split(",")) {
      const [type = "", ...parameters] = range.split(";").map((part) => part.trim());
      if (type.toLowerCase().startsWith(prefix)) {
        const rest = type.slice(prefix.length);
        const plus = rest.indexOf("+");
        const version = plus === -1 ? rest : rest.slice(0, plus);
        if (version !== "") return version;
      }
      for (const parameter of parameters) {
        if (parameter.startsWith("v=") && parameter.length > 2) return parameter.slice(2);
      }
    }
    return undefined;
  };
};

/** The versions a `CUSTOM` extractor reads from a request, in order of preference. */
const customVersions =
  (extractor: NonNullable<VersioningOptions["extractor"]>) =>
  (request: HttpServerRequest.HttpServerRequest): ReadonlyArray<string> | undefined => {
    const headers = request.headers;
    const extracted = extractor({
      method: request.method,
      url: request.url,
      headers,
      header: (name) => headers[name.toLowerCase()],
    });
    if (extracted === undefined || extracted === null || extracted === "") return undefined;
    const versions = typeof extracted === "string" ? [extracted] : extracted;
    return versions.length === 0 ? undefined : versions;
  };

/**
 * Reads the version a request asks for (HEADER, MEDIA_TYPE), or the versions in order of
 * preference (CUSTOM: its extractor's list); `undefined` when it names none. A URI version is
 * part of the path the router matched.
 */
export const requestVersion = (
  options: VersioningOptions,
): ((
  request: HttpServerRequest.HttpServerRequest,
) => string | ReadonlyArray<string> | undefined) => {
  if (options.type === VersioningType.CUSTOM) {
    if (typeof options.extractor !== "function") {
      throw new Error(
        "CUSTOM versioning needs an extractor: enableVersioning({ type: VersioningType.CUSTOM, extractor: (request) => version })",
      );
    }
    return customVersions(options.extractor);
  }
  return options.type === VersioningType.MEDIA_TYPE
    ? mediaTypeVersion(options.vendor ?? "strata")
    : headerVersion(options.header ?? "X-API-Version");
};
