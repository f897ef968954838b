import { useTranslation } from '../texts.tsx'
import { companyPlaceholders } from '#shared/company.ts'
import { ACCESSIBILITY_REVIEWED, ACCESSIBILITY_SECTIONS, formatLegalDate } from '#shared/legal.ts'
import { LOCALE_INFO } from '#shared/locales.ts'
import type { ScreenPage } from '#shared/pages.ts'
import { useApp } from '../app-context.tsx'
import { LegalDocument } from '../components/legal-document.tsx'
import { legalSections } from '../components/legal-sections.ts'
import type { ScreenProps } from '../routes.tsx'

/**
 * `/accessibility`: a voluntary accessibility statement (the BFSG does not bind this site),
 * stating only what the tests check (docs/testing.md) and whom to tell of a barrier.
 */
export function AccessibilityPage({ page }: ScreenProps<ScreenPage<'accessibility'>>) {
  const { t } = useTranslation('accessibility')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  const sections = legalSections(ACCESSIBILITY_SECTIONS, (id) =>
    t(`sections.${id}`, { ...values, returnObjects: true }),
  )
  return (
    <LegalDocument page={page} sections={sections}>
      <p className="legal-updated">
        {t('reviewed', {
          date: formatLegalDate(ACCESSIBILITY_REVIEWED, LOCALE_INFO[locale].iso),
        })}
      </p>
    </LegalDocument>
  )
}
