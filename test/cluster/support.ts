// Requests to the cluster of scripts/cluster.sh: through nginx, optionally pinned to one
// instance with `X-Strata-Instance`, or to an instance directly.
import { execFileSync } from "node:child_process";

/** The base port of the cluster (CLUSTER_PORT, as scripts/cluster.sh reads it). */
export const basePort = Number(process.env.CLUSTER_PORT ?? 18080);
/** nginx, the one address clients use. */
export const nginx = `http://127.0.0.1:${basePort}`;
/** Instance `n` directly (1 to 3). */
export const direct = (n: number) => `http://127.0.0.1:${basePort + n}`;

/** A request through nginx, answered by instance `instance` when given. */
export const via = (
  path: string,
  options: { instance?: number; cookie?: string; init?: RequestInit } = {},
) =>
  fetch(nginx + path, {
    redirect: "manual",
    ...options.init,
    headers: {
      ...(options.instance === undefined ? {} : { "x-strata-instance": String(options.instance) }),
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...(options.init?.headers as Record<string, string> | undefined),
    },
  });

/** `name=value` pairs of the cookies a response sets (expired ones left out). */
export const cookiesOf = (response: Response): string =>
  response.headers
    .getSetCookie()
    .filter((cookie) => !/max-age=0|expires=thu, 01 jan 1970/i.test(cookie))
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

/** Runs `scripts/cluster.sh` with `args`. */
export const cluster = (...args: Array<string>) =>
  execFileSync("bash", ["scripts/cluster.sh", ...args], { stdio: "inherit" });
