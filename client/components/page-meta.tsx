import { useLocation } from 'react-router-dom'
import { DEFAULT_LOCALE, LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import type { Page } from '#shared/pages.ts'
import { useApp } from '../app-context.tsx'
import { usePageTexts } from '../use-page-texts.ts'

/**
 * The head a browser needs, kept current across client-side navigations: a page's title,
 * description, canonical URL and hreflang alternates (React 19 hoists these into `<head>`).
 * What only crawlers and link previews read (Open Graph, the share image, structured data) the
 * server adds to the document it sends (server/render/page-head.ts).
 */
export function PageMeta({ page }: { page: Page }) {
  const { locale, baseUrl } = useApp()
  const { pathname } = useLocation()
  const { metaTitle, description } = usePageTexts(page)
  const absolute = (target: Locale) => `${baseUrl}${localizePath(target, pathname)}`
  return (
    <>
      <title>{metaTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={absolute(locale)} />
      {LOCALES.map((other) => (
        <link key={other} rel="alternate" hrefLang={other} href={absolute(other)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={absolute(DEFAULT_LOCALE)} />
    </>
  )
}

/** An error page's head: its title, and not indexed. */
export function ErrorMeta({ title }: { title: string }) {
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={title} />
      <meta name="robots" content="noindex" />
    </>
  )
}
