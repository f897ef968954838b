import { useTranslation } from 'react-i18next'
import { companyPlaceholders } from '#shared/company.ts'
import { LEGAL_UPDATED, PRIVACY_SECTIONS } from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import { LegalDocument } from '../components/legal-document.tsx'
import { legalSections } from '../components/legal-sections.ts'

/** `/privacy-policy`: what the site processes, on which legal basis, and the visitor's rights. */
export function PrivacyPage() {
  const { t } = useTranslation('privacy')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  const sections = legalSections(PRIVACY_SECTIONS, (id) =>
    t(`sections.${id}`, { ...values, returnObjects: true }),
  )
  return <LegalDocument namespace="privacy" updated={LEGAL_UPDATED.privacy} sections={sections} />
}
