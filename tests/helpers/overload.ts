import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'

/** Holds the event loop for `ms` milliseconds, as a page render gone wrong would. */
export function holdEventLoop(ms: number) {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // busy on purpose
  }
}

export const yieldToTimers = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * Sends a request while the app is overloaded: holds the loop in 200 ms blocks until the
 * guard's next sample (every second) says so, then injects. If the guard's sample came back
 * clear during the request, the request may have passed: it is sent again, after more blocks.
 */
export async function whileOverloaded(
  app: FastifyInstance,
  request: InjectOptions,
): Promise<LightMyRequestResponse> {
  for (let attempt = 0; attempt < 5; attempt++) {
    for (let block = 0; block < 25 && !app.isUnderPressure(); block++) {
      holdEventLoop(200)
      await yieldToTimers()
    }
    if (!app.isUnderPressure()) continue
    const response = await app.inject(request)
    if (app.isUnderPressure()) return response
  }
  throw new Error('the guard never reported the held event loop')
}
