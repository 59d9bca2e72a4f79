// A fake clock for the scheduler's tests: setTimeout/clearTimeout that fire only when a test
// moves time on (advance), in order, with every promise callback run in between. No real
// waiting: a test of seconds of backoff runs in milliseconds.
export const settled = () => new Promise((resolve) => setImmediate(resolve));

export function fakeClock() {
  let now = 0,
    seq = 0;
  const timers = new Map(); // id -> {at, fn}
  return {
    setTimeout(fn, ms) {
      seq += 1;
      timers.set(seq, { at: now + (ms || 0), fn });
      return seq;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    now: () => now,
    // the delays (ms from now) of the timers waiting
    waiting: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
    // move time on by ms, firing each timer due on the way at its own time
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await settled();
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
      await settled();
    },
  };
}
