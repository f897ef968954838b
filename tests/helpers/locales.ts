import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import i18next from 'i18next'
import type { Locale } from '#shared/locales.ts'
import { flatten } from './locale-checks.ts'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { PAGES, type Page, type PageId } from '#shared/pages.ts'
import { serviceNamespace } from '#shared/services.ts'
import { teamMember } from '#shared/team.ts'
import { I18N_BASE_OPTIONS } from '#shared/texts.ts'
import { typesetPostProcessor } from '#shared/typography.ts'

export type Json = Record<string, unknown>

const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales')

/** A locale file as the site reads it. */
export function texts(locale: Locale, namespace: string): Json {
  return JSON.parse(readFileSync(join(LOCALES_DIR, locale, `${namespace}.json`), 'utf8')) as Json
}

/** A value by dotted path (`meta.title`, `steps.0.text`). */
export function get(tree: Json, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Json)[key], tree)
}

/** Every text of a language as `[namespace:path, text]`, from all its files. */
export function localeStrings(locale: Locale): (readonly [string, string])[] {
  return FILE_NAMESPACES.flatMap((ns) =>
    [...flatten(texts(locale, ns))].map(([path, text]) => [`${ns}:${path}`, text] as const),
  )
}

/** The site's i18next options and post-processor, with no texts of its own. */
const i18n = i18next.createInstance()
void i18n.use(typesetPostProcessor).init({ ...I18N_BASE_OPTIONS, resources: {} })

/** Text as a page in `locale` shows it: facts and figures filled in and formatted, typeset. */
export function shown(text: unknown, locale: Locale): string {
  return i18n.t('shown', { lng: locale, defaultValue: String(text) })
}

/**
 * Text as a page in `locale` shows it, escaped as React writes HTML. Without a locale, only
 * escaped (a value shown as it is).
 */
export function html(text: unknown, locale?: Locale): string {
  return (locale ? shown(text, locale) : String(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
}

/**
 * Where a page's `<title>` and description come from: its service's or member's texts, else
 * its own.
 */
function metaSource(page: Page, field: 'title' | 'description'): [namespace: string, path: string] {
  if ('service' in page) return [serviceNamespace(page.service), `meta.${field}`]
  if ('member' in page) return ['team', `members.${teamMember(page.member).key}.meta.${field}`]
  return [page.namespaces[0], `meta.${field}`]
}

function metaText(id: PageId, locale: Locale, field: 'title' | 'description'): string {
  const page = PAGES.find((candidate) => candidate.id === id)
  if (!page) throw new Error(`Unknown page ${id}`)
  const [namespace, path] = metaSource(page, field)
  return shown(get(texts(locale, namespace), path), locale)
}

/** The title a page must have in a locale, as `document.title` reads it. */
export function titleText(id: PageId, locale: Locale): string {
  return metaText(id, locale, 'title')
}

/**
 * The description a page must have in a locale, as it appears in the HTML: figures and facts
 * filled in (a search snippet names the consultation's length from its figure, not typed).
 */
export function expectedDescription(id: PageId, locale: Locale): string {
  return html(metaText(id, locale, 'description'))
}

/** The `<title>` a page must have in a locale, as it appears in the HTML. */
export function expectedTitle(id: PageId, locale: Locale): string {
  return html(titleText(id, locale))
}
