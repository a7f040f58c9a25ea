/**
 * How many live entries each client holds in an in-process transaction store (transactions
 * waiting, or states taken), so that one client cannot fill the store for everybody
 * (SECURITY.md 42). Its own memory is bounded by the store's: one time per live entry, and
 * a client is forgotten once its entries have expired.
 */

/** The live entries of each client, by client key. */
export interface ClientQuota {
  /**
   * Forgets what expired at `now`; when `client` holds its maximum of live entries, the
   * milliseconds until its oldest one expires (a place frees up), else `undefined`.
   */
  readonly retryAfter: (client: string, now: number) => number | undefined;
  /**
   * Counts one live entry of `client` until `expiry`, or until the latest expiry counted so far
   * when that is later (which keeps forgetting in order); returns that time, for `release`.
   */
  readonly add: (client: string, expiry: number) => number;
  /** Forgets one entry of `client` counted until `forgetAt` (an entry taken before it expired). */
  readonly release: (client: string, forgetAt: number) => void;
}

/** An empty quota of `maxPerClient` live entries per client. */
export const makeClientQuota = (maxPerClient: number): ClientQuota => {
  // Each client's forget times, ascending. The map is in the order of each client's latest
  // `add` (moved to the end at every one), which is the order of their last forget times: a
  // sweep from the start stops at the first client with a live entry. O(1) amortised.
  const clients = new Map<string, Array<number>>();
  let latest = Number.NEGATIVE_INFINITY;

  const sweep = (now: number) => {
    for (const [client, times] of clients) {
      if (times[times.length - 1] > now) return;
      clients.delete(client);
    }
  };

  return {
    retryAfter: (client, now) => {
      sweep(now);
      const times = clients.get(client);
      if (times === undefined) return undefined;
      let expired = 0;
      while (expired < times.length && times[expired] <= now) expired++;
      if (expired === times.length) {
        clients.delete(client);
        return undefined;
      }
      if (expired > 0) times.splice(0, expired);
      return times.length < maxPerClient ? undefined : times[0] - now;
    },
    add: (client, expiry) => {
      if (expiry > latest) latest = expiry;
      const times = clients.get(client) ?? [];
      clients.delete(client);
      times.push(latest);
      clients.set(client, times);
      return latest;
    },
    release: (client, forgetAt) => {
      const times = clients.get(client);
      if (times === undefined) return;
      const index = times.indexOf(forgetAt);
      if (index === -1) return;
      times.splice(index, 1);
      if (times.length === 0) clients.delete(client);
    },
  };
};
