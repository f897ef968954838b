import type { ReactNode } from 'react'
import { useTranslation } from '../texts.tsx'
import { LOCALE_INFO } from '#shared/locales.ts'
import { formatLegalDate } from '#shared/legal.ts'
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
  page: ScreenPage<'terms' | 'privacy' | 'cookies' | 'imprint'>
  /** ISO date of the last change, shown in the locale's format. */
  updated?: string
  sections: readonly LegalSection[]
  /** Content between the introduction and the sections (imprint facts, cookie table). */
  children?: ReactNode
}

/**
 * Long-form legal text: one `h1`, a table of contents with anchors, numbered or plain
 * sections with their own headings, and a readable line length.
 */
export function LegalDocument({ page, updated, sections, children }: LegalDocumentProps) {
  const { t } = useTranslation()
  const { t: tl } = useTranslation(page.namespaces[0])
  const { title } = usePageTexts(page)
  const { locale } = useApp()
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
        {updated ? (
          <p className="legal-updated">
            {t('legal.lastUpdated', { date: formatLegalDate(updated, LOCALE_INFO[locale].iso) })}
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
    </article>
  )
}
