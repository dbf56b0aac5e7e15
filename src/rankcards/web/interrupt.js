// How a Stop reaches Python when the page is crossOriginIsolated: runtime.js (the page) and
// worker.js share an Int32Array over a SharedArrayBuffer.
//
//   slot 0  the signal Pyodide reads (setInterruptBuffer) and clears once read; SIGINT (2)
//           raises KeyboardInterrupt in the running Python code
//   slot 1  ours: the id of the newest run the last Stop was aimed at
//
// A Stop is aimed at the runs the page has sent; the worker serves requests in id order. When
// a request starts, a signal aimed only at earlier ones is stale: it came after its run had
// ended (the page heard of the end too late), and must not interrupt the demo's call or the
// next Run that follows.

const SIGNAL = 0;
const TARGET = 1;
const SIGINT = 2;

export function interruptBuffer() {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

// The page: stop the runs whose ids are up to `id`. The target is written before the signal,
// which dropStaleSignal relies on.
export function signalStop(buffer, id) {
  Atomics.store(buffer, TARGET, id);
  Atomics.store(buffer, SIGNAL, SIGINT);
}

// The worker: whether the last Stop was aimed at request `id` (or a later one), i.e. meant for
// what is running now rather than for a run that had ended when it was sent.
export function aimedAt(buffer, id) {
  return Atomics.load(buffer, TARGET) >= id;
}

// The worker: set the signal again for the run it was aimed at (something else read it first).
export function resignal(buffer) {
  Atomics.store(buffer, SIGNAL, SIGINT);
}

// The worker, as request `id` starts: clear a signal aimed at earlier requests only. A Stop aimed
// at this request may write its target and signal between the first read and the clear; the
// second read then sees its target (written before its signal) and sets the signal again.
export function dropStaleSignal(buffer, id) {
  if (Atomics.load(buffer, TARGET) >= id) return;
  Atomics.store(buffer, SIGNAL, 0);
  if (Atomics.load(buffer, TARGET) >= id) resignal(buffer);
}
