import type { ReactNode } from 'react'
import { useTranslation } from '../texts.tsx'
import { LOCALE_INFO } from '#shared/locales.ts'
import {
  formatLegalDate,
  legalVersions,
  type DatedLegalText,
  type LegalText,
} from '#shared/legal.ts'
import { companyPlaceholders } from '#shared/company.ts'
import { useApp } from '../app-context.tsx'
import type { ScreenPage } from '#shared/pages.ts'
import { usePageTexts } from '../use-page-texts.ts'
import { Breadcrumbs } from './breadcrumbs.tsx'
import { PageMeta } from './page-meta.tsx'
import '../styles/pages/legal.css'

export type LegalSection = {
  /** Anchor of the section, also its entry in the table of contents. */
  id: string
  heading: string
  paragraphs: readonly string[]
  items?: readonly string[]
  /** Paragraphs after the list. */
  closing?: readonly string[]
  /** Numbered sections (the terms) show their number in the heading. */
  number?: number
}

type LegalDocumentProps = {
  /** The legal page; its namespace holds `meta`, `title` and `intro`, the sections the page reads. */
  page: ScreenPage<LegalText>
  /** The text's dated history (shared/legal.ts): its latest date under the title, the list at the end. */
  history?: DatedLegalText
  sections: readonly LegalSection[]
  /** Content between the introduction and the sections (imprint facts, cookie table). */
  children?: ReactNode
}

/**
 * Long-form legal text: one `h1`, a table of contents with anchors, numbered or plain
 * sections with their own headings, and a readable line length.
 */
export function LegalDocument({ page, history, sections, children }: LegalDocumentProps) {
  const { t } = useTranslation('common')
  const { t: tl } = useTranslation(page.namespaces[0])
  const { title } = usePageTexts(page)
  const { locale, policy } = useApp()
  const versions = history ? legalVersions(history, policy) : []
  const date = (iso: string) => formatLegalDate(iso, LOCALE_INFO[locale].iso)
  // What changed on each date, from the page's texts (`history.<date>`).
  const changes = history ? (tl('history', { returnObjects: true }) as Record<string, string>) : {}
  const heading = (section: LegalSection) =>
    section.number === undefined
      ? section.heading
      : t('legal.numberedHeading', { number: section.number, heading: section.heading })
  return (
    <article className="legal container">
      <PageMeta page={page} />
      <header className="legal-header">
        <Breadcrumbs page={page} />
        <h1>{title}</h1>
        {versions[0] ? (
          <p className="legal-updated">
            {t('legal.lastUpdated', { date: date(versions[0].date) })}
          </p>
        ) : null}
        <p className="legal-intro">{tl('intro', companyPlaceholders(locale))}</p>
      </header>
      {children}
      {sections.length > 5 ? (
        <nav className="legal-toc" aria-labelledby="legal-toc-title">
          <h2 id="legal-toc-title">{t('legal.contents')}</h2>
          <ol>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{heading(section)}</a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          className="legal-section"
          aria-labelledby={`${section.id}-title`}
        >
          <h2 id={`${section.id}-title`}>{heading(section)}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items ? (
            <ul className="legal-list">
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
          {section.closing?.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      {versions.length > 0 ? (
        <section className="legal-section legal-history" aria-labelledby="legal-history-title">
          <h2 id="legal-history-title">{t('legal.history')}</h2>
          <ul className="legal-list">
            {versions.map((version) => (
              <li key={`${version.kind}-${version.date}`}>
                <time dateTime={version.date}>{date(version.date)}</time>
                {': '}
                {version.kind === 'settings' ? t('legal.settingsChanged') : changes[version.date]}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  )
}
