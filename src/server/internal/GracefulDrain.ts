import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import * as HttpServerError from "@effect/platform/HttpServerError";
import * as Effect from "effect/Effect";
import { DrainableServer } from "./DrainableServer.js";
import { type IdleConnections, idleConnections } from "./IdleConnections.js";
import type { InFlight } from "./InFlight.js";
import { RunningRequests } from "./RunningRequests.js";

/** A server that stops gracefully: its requests are followed through `inFlight`, `drain` stops it. */
export interface GracefulServer {
  readonly server: DrainableServer;
  readonly inFlight: InFlight;
  /** Stops the server (see {@link gracefulServer}); done once it is stopped. */
  readonly drain: Effect.Effect<void>;
}

/** What the drain and the request tracking share. */
interface DrainState {
  readonly running: RunningRequests;
  readonly connections: IdleConnections;
  /** Makes `res` the last response of its connection: `Connection: close`, unless already sent. */
  readonly closeAfter: (socket: Socket, res: ServerResponse) => void;
  draining: boolean;
  /** Called when the last running request ends, while the drain waits for them. */
  onSettled: (() => void) | undefined;
}

/** The response the drain chose to close each connection, moved when a newer one arrives. */
const lastResponses = () => {
  const closers = new Map<Socket, ServerResponse>();
  return (socket: Socket, res: ServerResponse) => {
    const previous = closers.get(socket);
    if (previous === res) return;
    if (previous !== undefined && !previous.headersSent) previous.shouldKeepAlive = true;
    closers.delete(socket);
    if (res.shouldKeepAlive && !res.headersSent) {
      res.shouldKeepAlive = false;
      closers.set(socket, res);
    }
  };
};

/** Follows requests: pipelined and draining connections on arrival, fibers until they end. */
const trackRequests = (state: DrainState): InFlight => ({
  arrive: (req, res) => {
    state.connections.arrived(req, res);
    if (state.draining) state.closeAfter(req.socket, res);
  },
  track: (res, fiber, onExit) => {
    const entry = state.running.add(res);
    res.on("close", () => {
      if (!res.writableEnded)
        fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId as never);
    });
    fiber.addObserver((exit) => {
      onExit?.(exit);
      state.running.remove(entry);
      if (state.draining && res.writableFinished) state.connections.closeWhenIdle(res.req.socket);
      if (state.running.size === 0) state.onSettled?.();
    });
  },
});

/** The stop of `server`, described at {@link gracefulServer}. */
const drainServer = (
  server: DrainableServer,
  state: DrainState,
  timeout: number,
  force: boolean,
): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    let closed = !server.listening;
    let requestsDone = state.running.size === 0;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      if (!closed || !requestsDone || deadline === undefined) return;
      clearTimeout(deadline);
      deadline = undefined;
      state.onSettled = undefined;
      resume(Effect.void);
    };
    state.draining = true;
    server.keepAliveTimeout = 1;
    // The last response of each connection with a request in flight closes it.
    const newest = new Map<Socket, ServerResponse>();
    for (const res of state.running.responses()) newest.set(res.req.socket, res);
    for (const [socket, res] of newest) {
      const last = state.connections.waiting(socket) ?? res;
      state.closeAfter(socket, last);
      last.once("finish", () => state.connections.closeWhenIdle(socket));
    }
    deadline = setTimeout(() => {
      requestsDone = true;
      server.closeAllConnections();
      finish();
    }, timeout);
    state.onSettled = () => {
      requestsDone = true;
      finish();
    };
    // Closing every connection interrupts their requests; the stop still waits for them to end.
    if (force) server.closeAllConnections();
    if (closed) finish();
    else {
      // Runs the sweep of `DrainableServer` on every connection.
      server.close(() => {
        closed = true;
        finish();
      });
    }
    return Effect.sync(() => {
      clearTimeout(deadline);
      state.onSettled = undefined;
    });
  });

/**
 * A server with a graceful stop: no new connections; every connection closed as soon as it has
 * no request left to answer and its bytes are out (idle keep-alive connections at once, one that
 * has not sent a request yet after a short grace, a response still being written to a slow
 * reader once it is out); the last response of each connection, in flight or arriving while
 * draining, answered with `Connection: close`. Done when every connection is closed and every
 * tracked request has completed. At the deadline (`timeout` ms) the remaining connections are
 * closed, which interrupts their requests; with `force`, that is done at once.
 */
export const gracefulServer = (timeout: number, force: boolean): GracefulServer => {
  // Each running fiber with the response it answers (a request may have two: its own, and the
  // one closing its scope after it failed or was interrupted).
  const running = new RunningRequests();
  const connections = idleConnections(running);
  const state: DrainState = {
    running,
    connections,
    closeAfter: lastResponses(),
    draining: false,
    onSettled: undefined,
  };
  const server = new DrainableServer(connections.closeWhenIdle);
  return {
    server,
    inFlight: trackRequests(state),
    drain: drainServer(server, state, timeout, force),
  };
};
