import type { ServerResponse } from "node:http";

/** One running request in a {@link RunningRequests}. */
export interface RunningRequest {
  readonly response: ServerResponse;
  previous: RunningRequest | undefined;
  next: RunningRequest | undefined;
}

/**
 * The requests of a server still running on a fiber, by the response each answers: a doubly
 * linked list, so that adding and removing one allocates a node and nothing else. (A `Map`
 * keyed by the fibers cost ~1.2 us a request: V8 first gives each fiber an identity hash.)
 */
export class RunningRequests {
  /** How many are running. */
  size = 0;
  private head: RunningRequest | undefined = undefined;

  /** Adds one answering `response`; remove it with {@link remove} when its fiber ends. */
  add(response: ServerResponse): RunningRequest {
    const entry: RunningRequest = { response, previous: undefined, next: this.head };
    if (this.head !== undefined) this.head.previous = entry;
    this.head = entry;
    this.size++;
    return entry;
  }

  /** Removes `entry` (once). */
  remove(entry: RunningRequest): void {
    if (entry.previous !== undefined) entry.previous.next = entry.next;
    else if (this.head === entry) this.head = entry.next;
    else return;
    if (entry.next !== undefined) entry.next.previous = entry.previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.size--;
  }

  /** The responses of the running requests, newest first. */
  *responses(): IterableIterator<ServerResponse> {
    for (let entry = this.head; entry !== undefined; entry = entry.next) yield entry.response;
  }
}
