import { networkInterfaces } from "node:os";
import type * as HttpServer from "@effect/platform/HttpServer";

/**
 * Whether this machine has an IPv6 loopback: node's default host (no host given to `listen`) is
 * then `::`, every interface of both families.
 */
const hasIpv6Loopback = (): boolean =>
  Object.values(networkInterfaces()).some((entries) =>
    (entries ?? []).some((entry) => entry.internal && entry.family === "IPv6"),
  );

/**
 * The base URL of a server listening at `address`, e.g. `http://127.0.0.1:3000`: on every
 * interface (`0.0.0.0`) it is `127.0.0.1`, or `[::1]` when `listen` was given no host and the
 * machine has IPv6 (node then listens on `::`), as NestJS's. Throws NestJS's message when there
 * is no server yet.
 */
export const serverUrl = (
  address: HttpServer.Address | undefined,
  defaultHost: boolean,
): string => {
  if (address === undefined) {
    throw new Error("app.listen() needs to be called before calling app.getUrl()");
  }
  if (address._tag === "UnixAddress") return `http+unix://${address.path}`;
  const host =
    address.hostname === "0.0.0.0"
      ? defaultHost && hasIpv6Loopback()
        ? "::1"
        : "127.0.0.1"
      : address.hostname;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
};

/** The port and host (IPv6 brackets off) a connection to the server at `url` opens. */
export const urlTarget = (url: string): { readonly port: number; readonly host: string } => {
  const parsed = new URL(url);
  return { port: Number(parsed.port), host: parsed.hostname.replace(/^\[|\]$/g, "") };
};
