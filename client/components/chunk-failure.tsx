import { useEffect, useState } from 'react'
import { useTranslation } from '../texts.tsx'
import { reloadGuarded } from '../runtime/reload-guard.ts'
import { runtimeConfig } from '../runtime/runtime-config.ts'

/**
 * A page's code failed to load (usually a deployment replaced it). First a guarded reload of
 * the page, which brings the new build; if that already happened moments ago, a message with a
 * reload button instead of a loop, and a short report to the server log.
 */
export function ChunkFailure() {
  const { t } = useTranslation()
  const [isStuck, setIsStuck] = useState(false)

  useEffect(() => {
    if (reloadGuarded(window.location.href)) return
    // The decision depends on sessionStorage and may leave the page: it belongs in an effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setIsStuck(true)
    const report = JSON.stringify({
      kind: 'chunk-load',
      path: window.location.pathname,
      buildId: runtimeConfig().app.buildId,
    })
    navigator.sendBeacon('/api/client-errors', new Blob([report], { type: 'application/json' }))
  }, [])

  if (!isStuck) return <p className="container chunk-reloading">{t('errors.chunkReloading')}</p>
  return (
    <section className="error-page container">
      <title>{t('errors.chunkTitle')}</title>
      <h1>{t('errors.chunkTitle')}</h1>
      <p className="error-message">{t('errors.chunkMessage')}</p>
      <button
        type="button"
        className="button button-primary"
        onClick={() => window.location.reload()}
      >
        {t('errors.reload')}
      </button>
    </section>
  )
}
