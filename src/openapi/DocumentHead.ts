import type { Info, OpenApiDocument, Server } from "./OpenApiDocument.js";
import type { OpenApiOptions } from "./OpenApiOptions.js";

/** The `info` and `servers` of a document, before its operations. */
export interface DocumentHead {
  readonly info: Info;
  readonly servers: ReadonlyArray<Server>;
}

/** `OpenApi.fromApi`'s title and version for an API without `OpenApi.Title` / `Version`. */
const fromApiDefaults: Pick<Info, "title" | "version"> = { title: "Api", version: "0.0.1" };

const sameServer = (a: Server, b: Server): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a document says about the API itself: each field of `options.info` as given, else from
 * the first of the listed `HttpApi`s' own documents that states it (their annotations). A title
 * or version no API states is `OpenApi.fromApi`'s (`Api`, `0.0.1`) in a document of `HttpApi`s
 * only, as `fromApi` writes it, and Strata's (`API`, `1.0.0`) in a document with controllers or
 * no `HttpApi`. `servers`: `options.servers`, else every server the APIs declare, once each.
 */
export const documentHead = (
  options: Pick<OpenApiOptions, "info" | "servers">,
  apiDocuments: ReadonlyArray<OpenApiDocument>,
  withControllers: boolean,
): DocumentHead => {
  const given = options.info ?? {};
  const fromApis = <K extends keyof Info>(key: K): Info[K] | undefined => {
    if (given[key] !== undefined) return given[key];
    const stated = apiDocuments.find((document) => {
      const value = document.info[key];
      return value !== undefined && value !== fromApiDefaults[key as keyof typeof fromApiDefaults];
    });
    return (stated ?? (withControllers ? undefined : apiDocuments[0]))?.info[key];
  };
  const description = fromApis("description");
  const summary = fromApis("summary");
  const license = fromApis("license");
  const info: Info = {
    title: fromApis("title") ?? "API",
    version: fromApis("version") ?? "1.0.0",
    ...(description === undefined ? {} : { description }),
    ...(summary === undefined ? {} : { summary }),
    ...(license === undefined ? {} : { license }),
  };
  if (options.servers !== undefined) return { info, servers: options.servers };
  const servers: Array<Server> = [];
  for (const document of apiDocuments) {
    for (const server of document.servers ?? []) {
      if (!servers.some((known) => sameServer(known, server))) servers.push(server);
    }
  }
  return { info, servers };
};
