import { useTranslation } from 'react-i18next'
import { companyPlaceholders } from '#shared/company.ts'
import { LEGAL_UPDATED, TERMS_PROHIBITED_USES, TERMS_SECTIONS } from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import { LegalDocument, type LegalSection } from '../components/legal-document.tsx'

/** `/terms-of-service`: thirteen numbered sections, then the prohibited uses. */
export function TermsPage() {
  const { t } = useTranslation('terms')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  const sections: LegalSection[] = TERMS_SECTIONS.map((id, index) => ({
    id,
    number: index + 1,
    heading: t(`sections.${id}.heading`, values),
    paragraphs: t(`sections.${id}.paragraphs`, { ...values, returnObjects: true }),
  }))
  sections.push({
    id: TERMS_PROHIBITED_USES,
    heading: t(`sections.${TERMS_PROHIBITED_USES}.heading`, values),
    paragraphs: t(`sections.${TERMS_PROHIBITED_USES}.paragraphs`, {
      ...values,
      returnObjects: true,
    }),
    items: t(`sections.${TERMS_PROHIBITED_USES}.items`, { ...values, returnObjects: true }),
  })
  return (
    <LegalDocument
      meta={{ title: t('meta.title'), description: t('meta.description') }}
      title={t('title')}
      intro={t('intro', values)}
      updated={LEGAL_UPDATED.terms}
      sections={sections}
    />
  )
}
