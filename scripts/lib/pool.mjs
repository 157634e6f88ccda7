// SPDX-License-Identifier: Apache-2.0
// pool.mjs — the one worker pool of scripts/*.mjs: runs an async job (a
// child process, usually) for each item, at most N at a time.

/// Calls `fn(item, index)` for every item of `items`, starting them in order
/// and keeping at most `n` (at least 1) running at once. Resolves to the
/// results in the order of `items` (not of completion). The first job that
/// throws (or rejects) makes runPool reject at once with its error; no job
/// is started after that (the running ones are not stopped). Jobs that
/// report a failure as a value (an exit code, an error row) do not stop
/// the others.
export async function runPool(items, n, fn) {
  const list = [...items];
  const results = new Array(list.length);
  const width = Math.max(1, Math.min(Math.floor(Number(n)) || 1, list.length));
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < list.length) {
      const i = next++;
      try {
        results[i] = await fn(list[i], i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
