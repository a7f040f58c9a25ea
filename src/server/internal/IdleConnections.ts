import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { RunningRequests } from "./RunningRequests.js";

/**
 * How long a connection that has not sent a request yet is kept open once the drain has begun,
 * for a first request already on its way (ms). Longer would hold every shutdown for clients that
 * open a connection ahead of need (browsers' preconnects) and never use it.
 */
const FIRST_REQUEST_GRACE = 500;

/** What the drain knows of a server's connections, and how it closes one that is idle. */
export interface IdleConnections {
  /** Notes a request arriving on its connection (pipelined ones included). */
  readonly arrived: (req: IncomingMessage, res: ServerResponse) => void;
  /** The response still queued behind the one being written on `socket`, if any. */
  readonly waiting: (socket: Socket) => ServerResponse | undefined;
  /** Closes `socket` once it has no request left to answer and what it writes is out. */
  readonly closeWhenIdle: (socket: Socket) => void;
}

/** The connections of a server whose requests still running on a fiber are `running`. */
export const idleConnections = (running: RunningRequests): IdleConnections => {
  // The newest response of a connection queued behind another at its arrival (pipelining).
  const queuedLast = new WeakMap<Socket, ServerResponse>();
  // Connections that have carried a request. One that has not yet may be a client's first
  // request on its way (a connection accepted, or handed over by node:cluster's primary, just as
  // the drain began): it gets a short grace to send it, answered with `Connection: close`.
  const served = new WeakSet<Socket>();
  const awaitingFirst = new WeakSet<Socket>();
  const awaitingDrain = new WeakSet<Socket>();

  const waiting = (socket: Socket) => {
    const queued = queuedLast.get(socket);
    return queued !== undefined && queued.socket === null && !queued.writableFinished
      ? queued
      : undefined;
  };
  const answering = (socket: Socket) => {
    if (waiting(socket) !== undefined) return true;
    for (const res of running.responses()) if (res.req.socket === socket) return true;
    return false;
  };
  const closeWhenIdle = (socket: Socket): void => {
    if (socket.destroyed || answering(socket)) return;
    if (!served.has(socket)) {
      if (awaitingFirst.has(socket)) return;
      awaitingFirst.add(socket);
      setTimeout(() => {
        if (!served.has(socket)) socket.destroy();
      }, FIRST_REQUEST_GRACE).unref();
      return;
    }
    if (socket.writableLength === 0) socket.destroy();
    // A response still going out to a slow reader. (Fewer bytes than the high-water mark raise
    // no `drain`: the keep-alive timeout closes those connections.)
    else if (socket.writableNeedDrain && !awaitingDrain.has(socket)) {
      awaitingDrain.add(socket);
      socket.once("drain", () => {
        awaitingDrain.delete(socket);
        closeWhenIdle(socket);
      });
    }
  };
  const arrived = (req: IncomingMessage, res: ServerResponse) => {
    served.add(req.socket);
    if (res.socket === null) queuedLast.set(req.socket, res);
  };
  return { arrived, waiting, closeWhenIdle };
};
