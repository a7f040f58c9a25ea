import { setFlagsFromString } from "node:v8";

let done = false;

/**
 * Turns off V8's allocation-site pretenuring for this process, once, unless node was started
 * with a choice of its own (`--allocation-site-pretenuring` or `--no-...` in `execArgv`, with
 * `-` or `_`).
 *
 * V8 decides per allocation site (an object or array literal) to allocate straight in its old
 * generation once most objects from that site outlive a young-generation collection. Sites in
 * node's HTTP objects and Effect's fibers are shared by long-lived objects (sockets, servers,
 * startup fibers) and per-request ones, so once the young generation is at its largest they can
 * be so marked: per-request objects then land in the old generation, die there, and keep the
 * young objects they point to alive through every young collection until the next full one,
 * which promotes those too. Measured on a route that waits once (50 connections, pinned core):
 * ~3 MB promoted every scavenge, ~25% of the time in GC pauses and ~35% fewer requests a second
 * than with pretenuring off. Routes that answer without waiting were hit in some runs only.
 *
 * @since 0.1.0
 * @category server
 */
export const disablePretenuring = (): void => {
  if (done) return;
  done = true;
  // V8 reads `_` in a flag's name as `-`: `--allocation_site_pretenuring` is the same flag.
  if (
    process.execArgv.some((arg) => arg.replaceAll("_", "-").endsWith("allocation-site-pretenuring"))
  )
    return;
  setFlagsFromString("--no-allocation-site-pretenuring");
};
