import escapeHtml from 'escape-html'
import { COMPANY } from '#shared/company.ts'
import { LOCALE_INFO, LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import type { Page } from '#shared/pages.ts'
import { genericTexts, pageTexts, type Translate } from '#shared/page-texts.ts'
import { serializeForScript } from '#shared/page-data.ts'
import { shareImageKey, type ShareImageManifest } from '#shared/share-images.ts'
import { structuredData } from './structured-data.ts'

/**
 * What only crawlers and link previews read, added by the server to the document it sends
 * (before `</head>`, see client/entry-server.tsx): Open Graph with the page's share image, the
 * Twitter/X card and the structured data. The browser never needs these after a client-side
 * navigation, so they are not part of the client bundle
 * (docs/languages.md#share-previews-and-structured-data). Title, description, canonical and
 * hreflang stay React's (`PageMeta`), which keeps them current across navigations
 * (docs/decisions/the-head-for-crawlers.md).
 */

export type PageHeadContext = {
  baseUrl: string
  locale: Locale
  /** `t` of the page's language, every namespace loaded. */
  t: Translate
  /** The build's share images; none while developing. */
  shareImages: ShareImageManifest | undefined
}

const ogLocale = (locale: Locale) => LOCALE_INFO[locale].iso.replace('-', '_')

function tag(attribute: 'property' | 'name', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}"/>`
}

function imageTags(context: PageHeadContext, subject: Page['id'] | 'generic', title: string) {
  const { shareImages, baseUrl, locale, t } = context
  const path = shareImages?.images[shareImageKey(locale, subject)]
  if (!shareImages || !path) return { url: undefined, tags: [] }
  const url = `${baseUrl}${path}`
  const alt = t('common:share.imageAlt', { title })
  return {
    url,
    tags: [
      tag('property', 'og:image', url),
      tag('property', 'og:image:type', 'image/png'),
      tag('property', 'og:image:width', String(shareImages.width)),
      tag('property', 'og:image:height', String(shareImages.height)),
      tag('property', 'og:image:alt', alt),
    ],
  }
}

/**
 * The head of a page of the table, or (without a page) of an error page: the site's generic
 * image and no URL or structured data of its own.
 */
export function pageHead(page: Page | undefined, status: number, context: PageHeadContext): string {
  const { baseUrl, locale, t } = context
  const texts = page ? pageTexts(page, t) : undefined
  const title = texts?.title ?? genericTexts(t).title
  const image = imageTags(context, page?.id ?? 'generic', title)
  const tags = [
    tag('property', 'og:site_name', COMPANY.brand),
    tag('property', 'og:type', 'website'),
    tag('property', 'og:locale', ogLocale(locale)),
    ...LOCALES.filter((other) => other !== locale).map((other) =>
      tag('property', 'og:locale:alternate', ogLocale(other)),
    ),
    ...image.tags,
    tag('name', 'twitter:card', 'summary_large_image'),
  ]
  if (page && texts) {
    tags.push(
      tag('property', 'og:title', texts.metaTitle),
      tag('property', 'og:description', texts.description),
      tag('property', 'og:url', `${baseUrl}${localizePath(locale, page.path)}`),
    )
    const graph = structuredData(page, texts, { baseUrl, locale, t, image: image.url })
    // A data block, not a script: allowed by the CSP, escaped so no text can end it.
    tags.push(`<script type="application/ld+json">${serializeForScript(graph)}</script>`)
  } else {
    const key = status === 404 ? 'notFoundTitle' : 'serverErrorTitle'
    tags.push(tag('property', 'og:title', t(`common:errors.${key}`)))
  }
  return tags.join('')
}
