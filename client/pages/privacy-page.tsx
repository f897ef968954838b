import { useTranslation } from '../texts.tsx'
import {
  CONDITIONAL_PRIVACY_SECTIONS,
  LEGAL_UPDATED,
  PRIVACY_SECTIONS,
  processors,
} from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import type { ScreenPage } from '#shared/pages.ts'
import { LegalDocument } from '../components/legal-document.tsx'
import type { ScreenProps } from '../routes.tsx'
import { legalSections, usePolicyValues } from '../components/legal-sections.ts'

/**
 * `/privacy-policy`: what the site processes, on which legal basis, for how long, and the
 * visitor's rights. Periods, limits and processors come from this deployment's settings.
 */
export function PrivacyPage({ page }: ScreenProps<ScreenPage<'privacy'>>) {
  const { t } = useTranslation('privacy')
  const { policy } = useApp()
  const values = usePolicyValues()
  const shown = PRIVACY_SECTIONS.filter((id) => CONDITIONAL_PRIVACY_SECTIONS[id]?.(policy) ?? true)
  const sections = legalSections(shown, (id) => {
    const texts = t(`sections.${id}`, { ...values, returnObjects: true })
    if (id !== 'recipients') return texts
    const items = processors(policy).map((key) =>
      t(`sections.recipients.processors.${key}`, values),
    )
    return { ...texts, items }
  })
  return <LegalDocument page={page} updated={LEGAL_UPDATED.privacy} sections={sections} />
}
