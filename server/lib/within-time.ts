/**
 * The work's result, or an error with the message once `ms` have passed; the timer goes with
 * the work, so nothing is left waiting. The work itself goes on: this only stops the waiting.
 */
export async function withinTime<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}
