/**
 * Loopback addresses: the only ones the development identity provider binds to.
 *
 * @since 0.1.0
 */
import { isIP } from "node:net";

/**
 * `true` for `localhost`, an IPv4 address in 127.0.0.0/8, `::1` and `::ffff:127.x.x.x`.
 * Wildcards (`0.0.0.0`, `::`) and every other address are not loopback.
 *
 * @since 0.1.0
 * @category network
 */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === "localhost") return true;
  if (isIP(bare) === 4) return bare.split(".")[0] === "127";
  if (isIP(bare) === 6) {
    const lower = bare.toLowerCase();
    if (lower === "::1" || lower === "0:0:0:0:0:0:0:1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped?.[1] !== undefined && isLoopbackHost(mapped[1]);
  }
  return false;
};

/** `host` as it goes into a URL (IPv6 in brackets). @since 0.1.0 @category network */
export const urlHost = (host: string): string => (isIP(host) === 6 ? `[${host}]` : host);
