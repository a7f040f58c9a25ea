// strata-classic on WORKERS (default 2) node:cluster workers sharing PORT: the primary forks
// them and hands out connections round robin (node's default on Linux), as the primary of
// examples/cluster/workers.ts does; its supervision (restarts, rolling restart) costs nothing
// per request and is left out. Prints "workers listening" once every worker listens.
import cluster from "node:cluster";
import { dirname, join } from "node:path";

const workers = Number(process.env.WORKERS ?? 2);
// Beside this file, in dist/cjs or dist/esm (no `import.meta`: this file compiles to both).
cluster.setupPrimary({ exec: join(dirname(process.argv[1] ?? ""), "strata-classic.js") });
let listening = 0;
let stopping = false;
cluster.on("listening", () => {
  if (++listening === workers) console.log(`${workers} workers listening`);
});
cluster.on("exit", (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    return;
  }
  console.error(`worker ${worker.process.pid} died (${signal ?? code})`);
  process.exit(1);
});
process.on("SIGTERM", () => {
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
});
for (let i = 0; i < workers; i++) cluster.fork();
