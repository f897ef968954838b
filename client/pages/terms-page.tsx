import { useTranslation } from '../texts.tsx'
import { companyPlaceholders } from '#shared/company.ts'
import { TERMS_PROHIBITED_USES, TERMS_SECTIONS } from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import type { ScreenPage } from '#shared/pages.ts'
import { LegalDocument } from '../components/legal-document.tsx'
import type { ScreenProps } from '../routes.tsx'
import { legalSections } from '../components/legal-sections.ts'

/** `/terms-of-service`: thirteen numbered sections, then the prohibited uses. */
export function TermsPage({ page }: ScreenProps<ScreenPage<'terms'>>) {
  const { t } = useTranslation('terms')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  // The thirteen numbered sections, then the prohibited uses.
  const sections = legalSections(
    [...TERMS_SECTIONS, TERMS_PROHIBITED_USES],
    (id) => t(`sections.${id}`, { ...values, returnObjects: true }),
    TERMS_SECTIONS.length,
  )
  return <LegalDocument page={page} history="terms" sections={sections} />
}
