import escapeHtml from 'escape-html'
import type { LocaleTexts } from '#shared/translator.ts'
import type { Translate } from '#shared/page-texts.ts'
import { localizePath } from '#shared/locales.ts'

/**
 * A self-contained error document for when React itself cannot render (or for methods the
 * page router does not serve): localized, styled by the site's stylesheet, no internals.
 */
export function fallbackErrorHtml(options: {
  texts: LocaleTexts
  status: 404 | 500
  path: string
  styles: readonly string[]
}): string {
  const { locale } = options.texts
  const t = options.texts.lookup('common') as Translate
  const isNotFound = options.status === 404
  const title = isNotFound ? t('errors.notFoundTitle') : t('errors.serverErrorTitle')
  const message = isNotFound
    ? t('errors.notFoundMessage', { path: options.path })
    : t('errors.serverErrorMessage')
  const styles = options.styles
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('')
  return (
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>${styles}</head>` +
    `<body><main id="main" class="error-page container"><p class="error-code">${options.status}</p>` +
    `<h1>${escapeHtml(title)}</h1><p class="error-message">${escapeHtml(message)}</p>` +
    `<p><a class="button button-primary" href="${localizePath(locale, '/')}">` +
    `${escapeHtml(t('errors.backHome'))}</a></p></main></body></html>`
  )
}
