import { BlockList, isIP } from "node:net";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as Effect from "effect/Effect";
import { StartupError } from "../di/StartupError.js";

/**
 * Whether to believe the `X-Forwarded-*` headers reverse proxies add. Any client can send them,
 * so each form says which `X-Forwarded-For` entry was written by a proxy of yours:
 * - `false` (the default) or `0`: none; the socket's peer is the client.
 * - a number `n`: the `n` proxies nearest to the server are yours; the client is the address
 *   `n` hops from the right (the socket's peer being the first hop).
 * - a list of proxy addresses and CIDR ranges (`["10.0.0.0/8", "2001:db8::/32"]`, or the names
 *   `loopback`, `linklocal`, `uniquelocal`), as the `proxy-addr` package reads it: walking from
 *   the socket's peer leftwards through `X-Forwarded-For`, the first address that is not a
 *   trusted proxy is the client. IPv4-mapped IPv6 addresses match IPv4 entries.
 * - `true`: every hop; the leftmost entry, which the client writes itself, is taken as the
 *   client. Never use it where the address matters: a rate limit refuses it at startup.
 *
 * An entry's port is dropped (`a.b.c.d:port`, `[v6]:port`); an entry believed as the client
 * that is no IP address (`unknown`) gives the socket's peer instead.
 *
 * @since 0.1.0
 * @category middleware
 */
export type TrustProxy = boolean | number | ReadonlyArray<string>;

/**
 * A {@link TrustProxy} option once parsed, at startup: booleans and hop counts as they are, a
 * list as a `BlockList` of the trusted proxies.
 *
 * @since 0.1.0
 * @category middleware
 */
export type ProxyTrust = boolean | number | BlockList;

/** The ranges `proxy-addr` names. */
const NAMED_RANGES: Readonly<Record<string, ReadonlyArray<string>>> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** Adds one entry of a list to `trusted`, or says why it is not an address or a CIDR range. */
const addEntry = (trusted: BlockList, entry: string): string | undefined => {
  const named = Object.hasOwn(NAMED_RANGES, entry) ? NAMED_RANGES[entry] : undefined;
  if (named !== undefined) {
    for (const range of named) addEntry(trusted, range);
    return undefined;
  }
  const slash = entry.indexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return `"${entry}" is not an IP address, a CIDR range or a named range`;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (slash === -1) {
    trusted.addAddress(address, type);
    return undefined;
  }
  const bits = entry.slice(slash + 1);
  const prefix = Number(bits);
  if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) {
    return `"${entry}" has no valid prefix length (0-${family === 4 ? 32 : 128})`;
  }
  trusted.addSubnet(address, prefix, type);
  return undefined;
};

/** Parses a list of trusted proxies, or says what is wrong with it. */
const parseList = (list: ReadonlyArray<string>): BlockList | string => {
  const trusted = new BlockList();
  for (const entry of list) {
    const problem = typeof entry === "string" ? addEntry(trusted, entry.trim()) : "not a string";
    if (problem !== undefined) return problem;
  }
  return trusted;
};

/**
 * Parses a {@link TrustProxy} option, once, at startup: a list with an entry that is not an
 * address, a CIDR range or a named range, or a hop count that is not a whole number, is a
 * `StartupError` naming the option.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (option: TrustProxy = false): Effect.Effect<ProxyTrust, StartupError> => {
  if (typeof option === "boolean") return Effect.succeed(option);
  if (typeof option === "number") {
    return Number.isInteger(option) && option >= 0
      ? Effect.succeed(option)
      : new StartupError({
          message: `trustProxy: ${option} is not a number of proxies (a whole number, 0 or more)`,
        });
  }
  const parsed = parseList(option);
  return typeof parsed === "string"
    ? new StartupError({ message: `trustProxy: ${parsed}` })
    : Effect.succeed(parsed);
};

/**
 * Lists given per request (`clientAddress(request, ["10.0.0.0/8"])`) parsed once each: a cache
 * of a pure parse, keyed by the list itself, so it holds no app state.
 */
const parsedLists = new WeakMap<ReadonlyArray<string>, BlockList>();

const parsedList = (list: ReadonlyArray<string>): BlockList => {
  let trusted = parsedLists.get(list);
  if (trusted === undefined) {
    const parsed = parseList(list);
    // Callers that cannot fail at startup: a defect (500) is safer than trusting less or more.
    if (typeof parsed === "string") throw new Error(`trustProxy: ${parsed}`);
    trusted = parsed;
    parsedLists.set(list, trusted);
  }
  return trusted;
};

const parsed = (trust: TrustProxy | ProxyTrust): ProxyTrust =>
  typeof trust === "object" && !(trust instanceof BlockList) ? parsedList(trust) : trust;

/** The first value of a header node may have joined or repeated. */
const headerValue = (request: HttpServerRequest.HttpServerRequest, name: string) => {
  const value: unknown = request.headers[name];
  return typeof value === "string" ? value : undefined;
};

const peerOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown";

const isTrusted = (trusted: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? "ipv4" : "ipv6");
};

/** `a.b.c.d:port` (one colon, an IPv4 address before it). */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
/** `[v6]` or `[v6]:port`. */
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::\d{1,5})?$/;

/**
 * The IP address of one `X-Forwarded-For` entry, without the port some proxies add
 * (`203.0.113.7:1111`, `[2001:db8::1]:1111`; Azure Application Gateway writes them), or
 * `undefined` for an entry that is no IP address (`unknown`, an RFC 7239 obfuscated name).
 */
const forwardedAddress = (entry: string): string | undefined => {
  if (isIP(entry) !== 0) return entry;
  const address = (IPV4_WITH_PORT.exec(entry) ?? BRACKETED_IPV6.exec(entry))?.[1];
  return address !== undefined && isIP(address) !== 0 ? address : undefined;
};

/** Whether an entry, its port dropped, is a trusted proxy's address. */
const isTrustedEntry = (trusted: BlockList, entry: string) => {
  const address = forwardedAddress(entry);
  return address !== undefined && isTrusted(trusted, address);
};

/**
 * The client's address: the socket's peer, unless `trustProxy` says which `X-Forwarded-For`
 * entry to believe (see {@link TrustProxy}), without its port (`a.b.c.d:port`, `[v6]:port`).
 * A believed entry that is no IP address is never taken as the client: the socket's peer is
 * (so a proxy that writes names cannot give each request a key of its own). `"unknown"` when
 * there is no address at all (a Unix socket). Give it the option parsed by `TrustProxy.make`;
 * a raw list is parsed on first use.
 *
 * @since 0.1.0
 * @category middleware
 */
export const clientAddress = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxy: TrustProxy | ProxyTrust = false,
): string => {
  const trust = parsed(trustProxy);
  const peer = peerOf(request);
  if (trust === false || trust === 0) return peer;
  if (typeof trust === "object" && !isTrusted(trust, peer)) return peer;
  const forwarded = headerValue(request, "x-forwarded-for");
  if (forwarded === undefined) return peer;
  const chain = forwarded
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  if (chain.length === 0) return peer;
  let client: string;
  if (trust === true) client = chain[0];
  else if (typeof trust === "number") {
    // `peer` is the nearest proxy; each further trusted hop is one more entry from the right.
    const hops = [...chain, peer];
    client = hops[Math.max(0, hops.length - 1 - trust)];
  } else {
    // Every entry but the first was written by the proxy to its right: walk while it is trusted.
    let index = chain.length - 1;
    while (index > 0 && isTrustedEntry(trust, chain[index])) index--;
    client = chain[index];
  }
  return forwardedAddress(client) ?? peer;
};

/**
 * Whether the client reached the app over https: a TLS socket, or behind a trusted proxy (a
 * hop count of 1 or more, `true`, or a socket peer in the list) `X-Forwarded-Proto: https`.
 *
 * @since 0.1.0
 * @category middleware
 */
export const isHttps = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxy: TrustProxy | ProxyTrust = false,
): boolean => {
  const source = request.source as { readonly socket?: { readonly encrypted?: boolean } };
  if (source?.socket?.encrypted === true) return true;
  const trust = parsed(trustProxy);
  if (trust === false || trust === 0) return false;
  if (typeof trust === "object" && !isTrusted(trust, peerOf(request))) return false;
  const proto = headerValue(request, "x-forwarded-proto");
  return proto !== undefined && proto.split(",")[0].trim().toLowerCase() === "https";
};
