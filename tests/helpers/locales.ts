import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { companyVariables } from '#shared/company.ts'
import type { Locale } from '#shared/locales.ts'
import type { PageId } from '#shared/routes.ts'
import { SERVICE_NAMESPACES } from '#shared/services.ts'
import { TEAM } from '#shared/team.ts'

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

const COMPANY_VARIABLES: Record<string, string | number> = companyVariables()

/** Text as the page shows it: company facts filled in, escaped as React writes HTML. */
export function html(text: unknown): string {
  return String(text)
    .replace(/\{\{(\w+)\}\}/g, (match, name: string) => String(COMPANY_VARIABLES[name] ?? match))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
}

/** Where each page's `<title>` comes from. */
const TITLE_SOURCES: Record<PageId, [namespace: string, path: string]> = {
  home: ['home', 'meta.title'],
  about: ['about', 'meta.title'],
  contact: ['contact', 'meta.title'],
  imprint: ['imprint', 'meta.title'],
  'cookie-policy': ['cookies', 'meta.title'],
  'privacy-policy': ['privacy', 'meta.title'],
  'terms-of-service': ['terms', 'meta.title'],
  services: ['services', 'meta.title'],
  ...(Object.fromEntries(
    TEAM.map((member) => [`team-${member.slug}`, ['team', `members.${member.key}.meta.title`]]),
  ) as Record<`team-${(typeof TEAM)[number]['slug']}`, [string, string]>),
  ...(Object.fromEntries(
    Object.values(SERVICE_NAMESPACES).map((namespace) => [namespace, [namespace, 'meta.title']]),
  ) as Record<(typeof SERVICE_NAMESPACES)[keyof typeof SERVICE_NAMESPACES], [string, string]>),
}

/** The `<title>` a page must have in a locale, as it appears in the HTML. */
export function expectedTitle(id: PageId, locale: Locale): string {
  const [namespace, path] = TITLE_SOURCES[id]
  return html(get(texts(locale, namespace), path))
}
