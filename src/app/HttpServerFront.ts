import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";

/**
 * A node `http.Server` for code that drives the app through one (`app.getHttpServer()`,
 * supertest): not listening until that code calls `listen`, it hands every connection it accepts
 * to the app's own server, which `start` makes listen on a loopback port (once, on the first
 * `listen`). `close` (called by `app.close()`) closes it and the connections it handed over.
 */
export const httpServerFront = (
  start: () => Promise<{ readonly port: number; readonly host: string }>,
): Server => {
  const server = createServer();
  const sockets = new Set<Socket>();
  let target: Promise<{ readonly port: number; readonly host: string }> | undefined;
  server.removeAllListeners("connection");
  server.on("listening", () => {
    target ??= start();
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    target ??= start();
    target.then(
      ({ port, host }) => {
        if (socket.destroyed) return;
        const upstream = connect(port, host);
        sockets.add(upstream);
        upstream.once("close", () => sockets.delete(upstream));
        socket.pipe(upstream).pipe(socket);
        socket.once("error", () => upstream.destroy());
        upstream.once("error", () => socket.destroy());
        socket.once("close", () => upstream.end());
        upstream.once("close", () => socket.end());
      },
      () => socket.destroy(),
    );
  });
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const socket of sockets) socket.destroy();
    if (server.listening) close(callback);
    else callback?.();
    return server;
  };
  return server;
};
