// Starts the cluster of scripts/cluster.sh before the suite and stops it after, failures
// included. CLUSTER_REUSE=1 uses one already up and leaves it running.
import { execFileSync } from "node:child_process";

const cluster = (command: string) =>
  execFileSync("bash", ["scripts/cluster.sh", command], { stdio: "inherit" });

export default function setup() {
  if (process.env.CLUSTER_REUSE === "1") return () => {};
  try {
    cluster("up");
  } catch (error) {
    cluster("down");
    throw error;
  }
  return () => cluster("down");
}
