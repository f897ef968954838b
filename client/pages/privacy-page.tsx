import { useTranslation } from 'react-i18next'
import { companyPlaceholders } from '#shared/company.ts'
import { LEGAL_UPDATED, PRIVACY_SECTIONS } from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import { LegalDocument, type LegalSection } from '../components/legal-document.tsx'

/** `/privacy-policy`: what the site processes, on which legal basis, and the visitor's rights. */
export function PrivacyPage() {
  const { t } = useTranslation('privacy')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  const sections: LegalSection[] = PRIVACY_SECTIONS.map((id) => {
    const section: LegalSection = {
      id,
      heading: t(`sections.${id}.heading`, values),
      paragraphs: t(`sections.${id}.paragraphs`, { ...values, returnObjects: true }),
    }
    if (id === 'overview' || id === 'rights') {
      section.items = t(`sections.${id}.items`, { ...values, returnObjects: true })
    }
    return section
  })
  return (
    <LegalDocument
      meta={{ title: t('meta.title'), description: t('meta.description') }}
      title={t('title')}
      intro={t('intro', values)}
      updated={LEGAL_UPDATED.privacy}
      sections={sections}
    />
  )
}
