import { useTranslation } from '../texts.tsx'
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router-dom'
import { useApp } from '../app-context.tsx'
import { localizePath } from '#shared/locales.ts'
import { isChunkLoadError } from '../runtime/chunk-error.ts'
import { ChunkFailure } from './chunk-failure.tsx'
import { Icon } from './icons.tsx'
import { LocalizedLink } from './localized-link.tsx'
import { ErrorMeta } from './page-meta.tsx'

/**
 * The 404 and 500 pages, rendered inside the site chrome by the boundary route. Internals of
 * an error are never shown: the visitor sees a localized message and ways back.
 */
export function ErrorView() {
  const error = useRouteError()
  if (isChunkLoadError(error)) return <ChunkFailure />
  return isRouteErrorResponse(error) && error.status === 404 ? <NotFound /> : <ServerError />
}

/**
 * Development only (compiled out of production builds): what failed, with its stack. A render
 * error on the server arrives source-mapped in the page data; an error in the browser (a
 * failing lazy import, say) is the route error itself.
 */
function useDevErrorDetails(): string | null {
  const error = useRouteError()
  const { devError } = useApp()
  if (!import.meta.env.DEV) return null
  if (devError) return `${devError.message}\n\n${devError.stack}`
  return error instanceof Error && error.stack ? error.stack : null
}

function NotFound() {
  const { t } = useTranslation()
  const { locale } = useApp()
  const { pathname } = useLocation()
  const path = localizePath(locale, pathname)
  const title = t('errors.notFoundTitle')
  return (
    <section className="error-page container">
      <ErrorMeta title={title} />
      <p className="error-code" aria-hidden="true">
        404
      </p>
      <h1>{title}</h1>
      <p className="error-message">{t('errors.notFoundMessage', { path })}</p>
      <p>{t('errors.notFoundHint')}</p>
      <ul className="error-links">
        <li>
          <LocalizedLink to="/" className="button button-primary">
            {t('errors.backHome')}
            <Icon name="arrowRight" />
          </LocalizedLink>
        </li>
        <li>
          <LocalizedLink to="/services" className="button button-secondary">
            {t('nav.servicesOverview')}
          </LocalizedLink>
        </li>
        <li>
          <LocalizedLink to="/contact" className="button button-secondary">
            {t('nav.contact')}
          </LocalizedLink>
        </li>
      </ul>
    </section>
  )
}

function ServerError() {
  const { t } = useTranslation()
  const title = t('errors.serverErrorTitle')
  const details = useDevErrorDetails()
  return (
    <section className="error-page container">
      <ErrorMeta title={title} />
      <p className="error-code" aria-hidden="true">
        500
      </p>
      <h1>{title}</h1>
      <p className="error-message">{t('errors.serverErrorMessage')}</p>
      {import.meta.env.DEV && details ? <pre className="error-details">{details}</pre> : null}
      <ul className="error-links">
        <li>
          <LocalizedLink to="/" className="button button-primary" reloadDocument>
            {t('errors.backHome')}
            <Icon name="arrowRight" />
          </LocalizedLink>
        </li>
      </ul>
    </section>
  )
}
