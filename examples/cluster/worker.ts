// One worker of ./workers.ts: the social-login demo, named `worker-<pid>` in its
// X-Strata-Instance header, stopped gracefully when the primary sends STOP_MESSAGE.
//
// The primary asks with a message rather than a signal: Ctrl-C in a terminal already sends
// SIGINT to every process of the group, and a second signal makes a Strata app exit at once
// instead of draining. So a worker that has seen a signal ignores the message.
import { STOP_MESSAGE } from "./supervisor.js";

process.env.STRATA_INSTANCE = `${process.env.STRATA_INSTANCE ?? "worker"}-${process.pid}`;

let signalled = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    signalled = true;
    // Before the app listens (and handles the signal itself): exit as without this listener.
    if (process.listenerCount(signal) === 0) process.exit(0);
  });
}
process.on("message", (message) => {
  if (message === STOP_MESSAGE && !signalled) process.kill(process.pid, "SIGTERM");
});

await import("../social-login/main.js");
