import escapeHtml from 'escape-html'
import type { i18n as I18n } from 'i18next'
import type { Locale } from '#shared/locales.ts'
import { localizePath } from '#shared/locales.ts'

/**
 * A self-contained error document for when React itself cannot render (or for methods the
 * page router does not serve): localized, styled by the site's stylesheet, no internals.
 */
export function fallbackErrorHtml(options: {
  i18n: I18n
  locale: Locale
  status: 404 | 500
  path: string
  styles: readonly string[]
}): string {
  const t = options.i18n.getFixedT(options.locale, 'common')
  const isNotFound = options.status === 404
  const title = isNotFound ? t('errors.notFoundTitle') : t('errors.serverErrorTitle')
  const message = isNotFound
    ? t('errors.notFoundMessage', { path: options.path })
    : t('errors.serverErrorMessage')
  const styles = options.styles
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('')
  return (
    `<!DOCTYPE html><html lang="${options.locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>${styles}</head>` +
    `<body><main id="main" class="error-page container"><p class="error-code">${options.status}</p>` +
    `<h1>${escapeHtml(title)}</h1><p class="error-message">${escapeHtml(message)}</p>` +
    `<p><a class="button button-primary" href="${localizePath(options.locale, '/')}">` +
    `${escapeHtml(t('errors.backHome'))}</a></p></main></body></html>`
  )
}
