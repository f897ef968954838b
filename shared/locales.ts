/** The site's languages. English is the default and lives unprefixed; the others under `/{code}`. */
export const LOCALES = ['en', 'de', 'pl'] as const

export type Locale = (typeof LOCALES)[number]

export const DEFAULT_LOCALE: Locale = 'en'

type LocaleInfo = {
  /** BCP 47 tag used for `og:locale` and `Intl` formatting. */
  readonly iso: string
  /** The language's name in its own language, as shown in the switcher. */
  readonly name: string
  /**
   * The locale whose list pattern matches the house style: the English copy sets no serial
   * comma ("a, b and c"), which `en-US` would add and `en-GB` leaves out.
   */
  readonly listIso: string
  /** What its typesetting binds with a no-break space, and its letters (shared/typography.ts). */
  readonly typesetting: Typesetting
}

/** A language's own typesetting rules: RegExp sources, each alternative a word or sign. */
type Typesetting = {
  /** Units and signs after a number beyond those of every language (`%`, `GB`, `ms`). */
  readonly units?: string
  /** Abbreviations before a number or letter (`Art.`, `Nr.`). */
  readonly before: string
  /** Patterns of the language's own, each ending in the space to bind. */
  readonly own?: string
  /** The language's letters beyond ASCII, all of them, for the font subset. */
  readonly letters: string
}

export const LOCALE_INFO: Readonly<Record<Locale, LocaleInfo>> = {
  en: {
    iso: 'en-US',
    name: 'English',
    listIso: 'en-GB',
    typesetting: {
      before: 'Art\\.|[Nn]o\\.|pp?\\.|[Ss]ections?',
      letters: '',
    },
  },
  de: {
    iso: 'de-DE',
    name: 'Deutsch',
    listIso: 'de-DE',
    typesetting: {
      units: 'Uhr|Tsd\\.|Mio\\.|Mrd\\.|ff?\\.',
      before: 'Abs\\.|Art\\.|Nr\\.|S\\.|Ziff\\.|lit\\.',
      own: '\\p{L}\\. (?=\\p{L}\\.)',
      letters: 'ÄÖÜäöüß',
    },
  },
  pl: {
    iso: 'pl-PL',
    name: 'Polski',
    listIso: 'pl-PL',
    typesetting: {
      units: 'zł|tys\\.|mln|mld|r\\.',
      before: '[Aa]rt\\.|ust\\.|pkt|[Nn]r|lit\\.|s\\.',
      own: '[aiouwzAIOUWZ] (?=\\S)',
      letters: 'ĄąĆćĘęŁłŃńÓóŚśŹźŻż',
    },
  },
}

/** Items joined as the page's language joins them: "a, b and c", "a, b und c", "a, b i c". */
export function formatList(items: readonly string[], locale: Locale): string {
  return new Intl.ListFormat(LOCALE_INFO[locale].listIso, { type: 'conjunction' }).format(items)
}

/** Cookie that remembers a language the visitor picked in the switcher
 * (docs/languages.md#languages). */
export const LOCALE_COOKIE = 'i18n_redirected'
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60

/**
 * The `Set-Cookie`-style string the language switcher writes when the visitor picks a language:
 * `i18n_redirected=de; Max-Age=31536000; Path=/; SameSite=Lax` (+ `Secure` on HTTPS).
 */
export function localeCookie(locale: Locale, isSecure: boolean): string {
  const attributes = [`Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}`, 'Path=/', 'SameSite=Lax']
  if (isSecure) attributes.push('Secure')
  return [`${LOCALE_COOKIE}=${locale}`, ...attributes].join('; ')
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

/**
 * The router basename of a locale: '' for English, '/de' and '/pl' otherwise; the server's
 * static handler and the browser's router both take it (docs/decisions/one-router-per-locale.md).
 */
export function localeBasename(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`
}

/** Which locale a pathname belongs to: `/de` and `/de/...` are German, everything else English. */
export function localeFromPath(pathname: string): Locale {
  const first = pathname.split('/')[1] ?? ''
  return isLocale(first) && first !== DEFAULT_LOCALE ? first : DEFAULT_LOCALE
}

/** Prefix an unprefixed site path (`/about`) with a locale: `/de/about`; `/` becomes `/de`. */
export function localizePath(locale: Locale, path: string): string {
  const base = localeBasename(locale)
  if (base === '') return path
  return path === '/' ? base : `${base}${path}`
}

/** Strip the locale prefix of a pathname: `/de/about` → `/about`, `/de` → `/`. */
export function unlocalizePath(pathname: string): string {
  const base = localeBasename(localeFromPath(pathname))
  const rest = pathname.slice(base.length)
  return rest === '' ? '/' : rest
}
