// `npm run contact:retry-failed` (with REDIS_URL set, e.g. in a pod: `kubectl exec deploy/<name>
// -- node server/cli/contact-retry-failed.ts`): moves every contact message that ended in the
// queue's `failed` state back to waiting, so the workers deliver it again. The site never
// fails a message by itself (it retries for as long as SMTP is down); a job can only end there
// after being interrupted over and over, and the metric contact_queue_jobs{state="failed"}
// shows it.
import { operatorQueue } from '#server/services/contact/index.ts'

const url = process.env.REDIS_URL
if (!url) {
  console.error('REDIS_URL is not set: the file outbox has no failed state (it retries for ever).')
  process.exit(2)
}
const outbox = operatorQueue(url)
try {
  await outbox.queue.waitUntilReady()
  const moved = await outbox.retryFailed()
  console.log(`${moved} failed contact message(s) moved back to the queue`)
} finally {
  await outbox.close()
}
