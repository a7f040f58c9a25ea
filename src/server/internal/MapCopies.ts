/**
 * Copies of a small Map made on the hot path. `new Map(map)` goes through the iterator
 * protocol; setting the entries of an array one by one is about twice as fast for the few
 * entries of a request's context or fiber refs (measured: 66 against 27 ns for one entry,
 * 85 against 34 ns for two).
 */
export type MapEntries<K, V> = ReadonlyArray<readonly [K, V]>;

/** The entries of `map`, taken once, to copy it with {@link mapOf}. */
export const entriesOf = <K, V>(map: ReadonlyMap<K, V>): MapEntries<K, V> => [...map];

/** A new Map holding `entries`. */
export const mapOf = <K, V>(entries: MapEntries<K, V>): Map<K, V> => {
  const map = new Map<K, V>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as readonly [K, V];
    map.set(entry[0], entry[1]);
  }
  return map;
};
