/**
 * Waits until `check` holds, looking every 50 ms, and fails after `timeoutMs`. The bound is
 * generous on purpose: it returns as soon as the condition holds, so a machine starved for a
 * few seconds (CI's two cores shared with other jobs) costs time, not a failed test.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`condition not reached within ${timeoutMs} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
