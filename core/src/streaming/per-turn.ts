/**
 * `run`, at most once per turn: the first call in a turn schedules one run in
 * a microtask after it, and the calls after it in the same turn join that
 * run. A burst of changes (watches added together, subscriptions dropped
 * together) is then acted on once, with all of them in view.
 */
export function oncePerTurn(run: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      run();
    });
  };
}
