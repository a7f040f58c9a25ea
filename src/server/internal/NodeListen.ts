import type { Server } from "node:http";
import type * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerError from "@effect/platform/HttpServerError";
import * as Effect from "effect/Effect";

/** Opens `server` on `port` (and `host`); a failure to listen is a `ServeError`. */
export const listen = (
  server: Server,
  port: number,
  host: string | undefined,
): Effect.Effect<void, HttpServerError.ServeError> =>
  Effect.async<void, HttpServerError.ServeError>((resume) => {
    const onError = (cause: Error) =>
      resume(Effect.fail(new HttpServerError.ServeError({ cause })));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resume(Effect.void);
    });
  });

/** Where `server` listens, as the platform's `HttpServer` tells it (`port` if node does not say). */
export const addressOf = (server: Server, port: number): HttpServer.Address => {
  const address = server.address();
  return typeof address === "string"
    ? { _tag: "UnixAddress", path: address }
    : {
        _tag: "TcpAddress",
        // Every interface is `0.0.0.0`, IPv6 ones (`::`) included, as on the stock node server.
        hostname: address?.address === "::" ? "0.0.0.0" : (address?.address ?? "0.0.0.0"),
        port: address?.port ?? port,
      };
};
