/** Marks the signal listeners of Strata apps, so the last one to finish closing exits. */
const StrataListener: unique symbol = Symbol.for("effect-strata/lifecycle/ShutdownSignals");

type Listener = ((signal: NodeJS.Signals) => void) & { readonly [StrataListener]?: true };

const strataListening = (signals: ReadonlyArray<NodeJS.Signals>) =>
  signals.some((signal) =>
    process.listeners(signal).some((listener) => StrataListener in listener),
  );

/**
 * Closes an app on the first of `signals` and then exits the process, with code 0 once the
 * close has completed (1 if it failed), as soon as no other Strata app is still closing. A
 * second signal during the close exits at once with code 1. `close` must call the returned
 * function when it has finished, so that the listeners go away with the app; an app closed
 * without a signal leaves the process running.
 */
export const onShutdownSignals = (
  signals: ReadonlyArray<NodeJS.Signals>,
  close: (signal: NodeJS.Signals) => Promise<void>,
): (() => void) => {
  let received = false;
  const listener: Listener = Object.assign(
    (signal: NodeJS.Signals) => {
      if (received) process.exit(1);
      received = true;
      const exit = (code: number) => () => {
        if (!strataListening(signals)) process.exit(code);
      };
      close(signal).then(exit(0), exit(1));
    },
    { [StrataListener]: true as const },
  );
  for (const signal of signals) process.on(signal, listener);
  return () => {
    for (const signal of signals) process.off(signal, listener);
  };
};
