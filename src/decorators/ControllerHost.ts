import { MetadataKey, readMetadata } from "../di/metadata.js";
import type { ControllerHost, ControllerMetadata } from "./Controller.js";

/** The host parameters of a request a controller's `host` matched (`{ tenant: "acme" }`). */
export type HostParams = Readonly<Record<string, string>>;

/** Matches a request's hostname against a controller's `host`: its parameters, or `undefined`. */
export type HostMatcher = (hostname: string) => HostParams | undefined;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** One host pattern: `:name` parts capture (as NestJS's path-to-regexp), the rest is literal. */
const patternMatcher = (pattern: string): HostMatcher => {
  const names: Array<string> = [];
  const source = pattern
    .split(/(:[A-Za-z_$][\w$]*)/)
    .map((part) => {
      if (!part.startsWith(":") || part.length < 2) return escapeRegExp(part);
      names.push(part.slice(1));
      return "([^/]+?)";
    })
    .join("");
  const regexp = new RegExp(`^${source}$`, "i");
  return (hostname) => {
    const match = regexp.exec(hostname);
    if (match === null) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, match[i + 1] as string]));
  };
};

/** A RegExp host: its named groups are the host parameters. */
const regExpMatcher =
  (regexp: RegExp): HostMatcher =>
  (hostname) => {
    const match = new RegExp(regexp.source, regexp.flags.replace("g", "")).exec(hostname);
    if (match === null) return undefined;
    return { ...match.groups };
  };

/**
 * Compiles a controller's `host` once, at startup: a hostname, a `:name` pattern or a RegExp,
 * or a list of them (the first that matches wins).
 */
export const hostMatcher = (host: ControllerHost): HostMatcher => {
  const matchers = (Array.isArray(host) ? host : [host]).map((entry: string | RegExp) =>
    typeof entry === "string" ? patternMatcher(entry) : regExpMatcher(entry),
  );
  return (hostname) => {
    for (const matcher of matchers) {
      const params = matcher(hostname);
      if (params !== undefined) return params;
    }
    return undefined;
  };
};

/** The hostname a request names (its `Host` header, without the port), as Express's `req.hostname`. */
export const requestHostname = (headers: Readonly<Record<string, string | undefined>>): string => {
  const host = headers.host ?? "";
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.indexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
};

const matchers = new WeakMap<Function, HostMatcher | undefined>();

/** The host matcher of a controller class (`undefined` without a `host`), compiled once. */
export const controllerHostMatcher = (controller: Function): HostMatcher | undefined => {
  if (matchers.has(controller)) return matchers.get(controller);
  const host = readMetadata<ControllerMetadata>(MetadataKey.controller, controller)?.host;
  const matcher = host === undefined ? undefined : hostMatcher(host);
  matchers.set(controller, matcher);
  return matcher;
};
