import type * as HttpServer from "@effect/platform/HttpServer";

/**
 * The base URL of a server listening at `address`, e.g. `http://127.0.0.1:3000`: on every IPv4
 * interface (`0.0.0.0`) it is `127.0.0.1`, on every IPv6 one (`::`) `[::1]`, as NestJS's.
 * Throws NestJS's message when there is no server yet.
 */
export const serverUrl = (address: HttpServer.Address | undefined): string => {
  if (address === undefined) {
    throw new Error("app.listen() needs to be called before calling app.getUrl()");
  }
  if (address._tag === "UnixAddress") return `http+unix://${address.path}`;
  const host =
    address.hostname === "0.0.0.0"
      ? "127.0.0.1"
      : address.hostname === "::"
        ? "::1"
        : address.hostname;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
};

/** The port and host (IPv6 brackets off) a connection to the server at `url` opens. */
export const urlTarget = (url: string): { readonly port: number; readonly host: string } => {
  const parsed = new URL(url);
  return { port: Number(parsed.port), host: parsed.hostname.replace(/^\[|\]$/g, "") };
};
