import { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * node's HTTP server, with an idle sweep that spares responses still being written: node 20's own
 * `closeIdleConnections` (which `close()` runs) also destroys a connection whose response has
 * ended while its bytes still wait in the socket for a slow reader, cutting that body short.
 * Here the sweep hands every connection to `closeWhenIdle`.
 */
export class DrainableServer extends Server {
  private readonly sockets = new Set<Socket>();

  constructor(private readonly closeWhenIdle: (socket: Socket) => void) {
    super();
    this.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    });
  }

  override closeIdleConnections(): void {
    for (const socket of this.sockets) this.closeWhenIdle(socket);
  }
}
