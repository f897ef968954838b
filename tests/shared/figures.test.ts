import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import { FIGURES } from '#shared/figures.ts'
import { STATS, statValue } from '#shared/home.ts'
import { LOCALES } from '#shared/locales.ts'
import { I18N_BASE_OPTIONS } from '#shared/texts.ts'

const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales')

/** Every text of a locale, with its file and key. */
function textsOf(locale: string): [where: string, text: string][] {
  const walk = (node: unknown, where: string): [string, string][] =>
    typeof node === 'string'
      ? [[where, node]]
      : Object.entries(node as object).flatMap(([key, value]) => walk(value, `${where}.${key}`))
  return readdirSync(join(LOCALES_DIR, locale)).flatMap((file) =>
    walk(JSON.parse(readFileSync(join(LOCALES_DIR, locale, file), 'utf8')), `${locale}/${file}`),
  )
}

/** `gdpr.fineEuros` and the other dotted paths of the figures table. */
function figurePaths(node: object, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'object' && !(value instanceof Date)
      ? figurePaths(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  )
}

const FORMATTED = /\{\{\s*([\w.]+)\s*,\s*(\w+)[^}]*\}\}/g

describe('figures', () => {
  const english = textsOf('en')

  it('are each named by a text', () => {
    const named = new Set(
      english.flatMap(([, text]) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1])),
    )
    for (const stat of STATS) if ('figure' in stat) named.add(stat.figure)
    const unused = figurePaths(FIGURES).filter((path) => !named.has(path))
    expect(unused).toEqual([])
  })

  it.each(LOCALES)('are the only thing %s texts format, with a format i18next has', (locale) => {
    const known = new Set(figurePaths(FIGURES))
    for (const [where, text] of textsOf(locale)) {
      for (const [, name, format] of text.matchAll(FORMATTED)) {
        expect(known.has(name ?? ''), `${where}: ${name}`).toBe(true)
        expect(['number', 'datetime'], where).toContain(format)
      }
    }
  })

  it.each(LOCALES)('leave no percentage or million typed into the %s texts', (locale) => {
    const typed = textsOf(locale).filter(([, text]) =>
      /\d\s?%|\d\s(million|Mio\.|mln)(?!\p{L})/u.test(text),
    )
    expect(typed).toEqual([])
  })

  it.each(LOCALES)('leave the consultation’s length to its figure in the %s texts', (locale) => {
    // "30-minute", "30 Minuten", "30-minutową": search snippets would go stale with the figure.
    const typed = new RegExp(`(?<![\\d.,])${FIGURES.consultationMinutes}[\\s\u00A0-]*minut`, 'iu')
    expect(textsOf(locale).filter(([, text]) => typed.test(text))).toEqual([])
  })

  it('are written by Intl in each language', () => {
    const i18n = i18next.createInstance()
    void i18n.init({ ...I18N_BASE_OPTIONS, resources: {} })
    const texts = [
      '{{uptime, number(style: percent; maximumFractionDigits: 1)}}',
      '{{gdpr.fineEuros, number(notation: compact; compactDisplay: long)}}',
      '{{bfsg.since, datetime(dateStyle: long; timeZone: UTC)}}',
      '{{contentPaintSeconds, number}}',
    ]
    const shown = (locale: string) =>
      texts.map((text) => i18n.services.interpolator.interpolate(text, {}, locale, {}))
    expect(shown('en')).toEqual(['99.9%', '20 million', 'June 28, 2025', '2.5'])
    expect(shown('de')).toEqual(['99,9\u00A0%', '20 Millionen', '28. Juni 2025', '2,5'])
    expect(shown('pl')).toEqual(['99,9%', '20 milionów', '28 czerwca 2025', '2,5'])
  })

  it('give the home page its stats in the language', () => {
    const values = (locale: string) => STATS.map((stat) => statValue(stat, locale))
    expect(values('en')).toEqual(['100%', '99.9%', '24/7', '15+'])
    expect(values('de')).toEqual(['100\u00A0%', '99,9\u00A0%', '24/7', '15+'])
    expect(values('pl')).toEqual(['100%', '99,9%', '24/7', '15+'])
  })
})
