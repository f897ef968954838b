import { useLocation } from 'react-router-dom'
import { DEFAULT_LOCALE, LOCALE_INFO, LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import { useApp } from '../app-context.tsx'

type PageMetaProps = {
  title: string
  description: string
  /** Error pages are not indexed and have no canonical URL. */
  isIndexable?: boolean
}

/**
 * Per-page head: title, description, canonical, hreflang alternates and Open Graph. React 19
 * hoists these into the streamed `<head>`.
 */
export function PageMeta({ title, description, isIndexable = true }: PageMetaProps) {
  const { locale, baseUrl } = useApp()
  const { pathname } = useLocation()
  const absolute = (target: Locale) => `${baseUrl}${localizePath(target, pathname)}`
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:type" content="website" />
      <meta property="og:locale" content={LOCALE_INFO[locale].iso.replace('-', '_')} />
      {LOCALES.filter((other) => other !== locale).map((other) => (
        <meta
          key={other}
          property="og:locale:alternate"
          content={LOCALE_INFO[other].iso.replace('-', '_')}
        />
      ))}
      {isIndexable ? (
        <>
          <link rel="canonical" href={absolute(locale)} />
          <meta property="og:url" content={absolute(locale)} />
          {LOCALES.map((other) => (
            <link key={other} rel="alternate" hrefLang={other} href={absolute(other)} />
          ))}
          <link rel="alternate" hrefLang="x-default" href={absolute(DEFAULT_LOCALE)} />
        </>
      ) : (
        <meta name="robots" content="noindex" />
      )}
    </>
  )
}
