/**
 * A bounded in-process memory of entries that each live until an expiry: what the local
 * transaction stores remember of single-use values. An entry is forgotten only once it has
 * expired, never to make room (SECURITY.md 41): when live entries fill it, `hasRoom` says so
 * and the caller refuses the new one.
 *
 * @since 0.1.0
 */

/**
 * Entries under string keys, each kept until its expiry (epoch milliseconds).
 *
 * @since 0.1.0
 * @category transaction
 */
export interface ExpiringEntries<V> {
  /** Forgets the entries expired at `now`. */
  readonly prune: (now: number) => void;
  /** Forgets the entries expired at `now`; `true` when one more fits. */
  readonly hasRoom: (now: number) => boolean;
  /**
   * Keeps `value` under `key` until `expiry` at least: until the latest expiry set so far,
   * when that is later (which keeps forgetting in order, from the oldest).
   */
  readonly set: (key: string, value: V, expiry: number) => void;
  /** The value under `key`, if it was not forgotten. */
  readonly get: (key: string) => V | undefined;
  /** Forgets `key` now. */
  readonly delete: (key: string) => void;
}

/**
 * An empty memory of at most `maxEntries` entries.
 *
 * @since 0.1.0
 * @category transaction
 */
export const makeExpiringEntries = <V>(maxEntries: number): ExpiringEntries<V> => {
  // Insertion order is forget-time order (each forget time is at least the previous one), so
  // pruning starts at the oldest and stops at the first live entry: O(1) amortised.
  const entries = new Map<string, { readonly value: V; readonly forgetAt: number }>();
  let latest = Number.NEGATIVE_INFINITY;
  const prune = (now: number) => {
    for (const [key, entry] of entries) {
      if (entry.forgetAt > now) return;
      entries.delete(key);
    }
  };
  return {
    prune,
    hasRoom: (now) => {
      prune(now);
      return entries.size < maxEntries;
    },
    set: (key, value, expiry) => {
      if (expiry > latest) latest = expiry;
      entries.delete(key);
      entries.set(key, { value, forgetAt: latest });
    },
    get: (key) => entries.get(key)?.value,
    delete: (key) => {
      entries.delete(key);
    },
  };
};
