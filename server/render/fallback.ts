import escapeHtml from 'escape-html'
import type { i18n as I18n } from 'i18next'
import type { Translate } from '#shared/page-texts.ts'
import { localizePath, type Locale } from '#shared/locales.ts'

type FallbackPage =
  | { status: 404; path: string }
  | { status: 500 }
  /** Made once at start, sent while the process is overloaded: the same for every path. */
  | { status: 503 }

/** The page's title, message and button: where the button leads and what it says. */
function fallbackTexts(page: FallbackPage, t: Translate, locale: Locale) {
  switch (page.status) {
    case 404:
      return {
        title: t('errors.notFoundTitle'),
        message: t('errors.notFoundMessage', { path: page.path }),
        action: { href: localizePath(locale, '/'), label: t('errors.backHome') },
      }
    case 500:
      return {
        title: t('errors.serverErrorTitle'),
        message: t('errors.serverErrorMessage'),
        action: { href: localizePath(locale, '/'), label: t('errors.backHome') },
      }
    case 503:
      // An empty href is the address the visitor asked for: "try again" loads it anew.
      return {
        title: t('errors.unavailableTitle'),
        message: t('errors.unavailableMessage'),
        action: { href: '', label: t('errors.tryAgain') },
      }
  }
}

/**
 * A self-contained error document for when React itself cannot render, for methods the page
 * router does not serve, and for an overloaded process: localized, styled by the site's
 * stylesheet (if the browser has it or can get it), no internals.
 */
export function fallbackErrorHtml(
  options: FallbackPage & { i18n: I18n; locale: Locale; styles: readonly string[] },
): string {
  const { locale } = options
  const t = options.i18n.getFixedT(locale, 'common') as unknown as Translate
  const { title, message, action } = fallbackTexts(options, t, locale)
  const styles = options.styles
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('')
  return (
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>${styles}</head>` +
    `<body><main id="main" class="error-page container"><p class="error-code">${options.status}</p>` +
    `<h1>${escapeHtml(title)}</h1><p class="error-message">${escapeHtml(message)}</p>` +
    `<p><a class="button button-primary" href="${escapeHtml(action.href)}">` +
    `${escapeHtml(action.label)}</a></p></main></body></html>`
  )
}
