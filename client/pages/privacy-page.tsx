import { useTranslation } from '../texts.tsx'
import {
  CONDITIONAL_PRIVACY_SECTIONS,
  objectionGrounds as objectionGroundsOf,
  PRIVACY_SECTIONS,
  processors,
} from '#shared/legal.ts'
import { CONTACT_FIELDS } from '#shared/contact-fields.ts'
import { formatList } from '#shared/locales.ts'
import { typeset } from '#shared/typography.ts'
import { useApp } from '../app-context.tsx'
import type { ScreenPage } from '#shared/pages.ts'
import { LegalDocument } from '../components/legal-document.tsx'
import type { ScreenProps } from '../routes.tsx'
import { legalSections, usePolicyValues } from '../components/legal-sections.ts'

/**
 * `/privacy-policy`: what the site processes, on which legal basis, for how long, and the
 * visitor's rights. Periods, limits and processors come from this deployment's settings; the
 * form's fields from the form's field table.
 */
export function PrivacyPage({ page }: ScreenProps<ScreenPage<'privacy'>>) {
  const { t } = useTranslation('privacy')
  const { t: tCommon } = useTranslation('common')
  const { locale, policy } = useApp()
  const values = usePolicyValues()
  // Lists in the language ("a, b and c"), typeset as a whole, since a value passed to t() is
  // left as it is: every field the contact form has, and what rests on Art. 6(1)(f) GDPR.
  const list = (items: string[]) => typeset(formatList(items, locale), locale)
  const formFields = list(
    CONTACT_FIELDS.map(({ name, isRequired }) =>
      isRequired
        ? t(`formFields.${name}`)
        : `${t(`formFields.${name}`)} (${tCommon('form.optional')})`,
    ),
  )
  const objectionGrounds = list(
    objectionGroundsOf(policy).map((key) => t(`objectionGrounds.${key}`)),
  )
  const shown = PRIVACY_SECTIONS.filter((id) => CONDITIONAL_PRIVACY_SECTIONS[id]?.(policy) ?? true)
  const sections = legalSections(shown, (id) => {
    const texts = t(`sections.${id}`, {
      ...values,
      formFields,
      objectionGrounds,
      returnObjects: true,
    })
    // What the spam defence holds back is kept only with QUARANTINE_DAYS above 0: its period
    // follows the first paragraph on storage periods then.
    if (id === 'retention' && policy.quarantineDays > 0) {
      const [first, ...rest] = texts.paragraphs
      const quarantine = t('retentionOfHeldBack', values)
      return { ...texts, paragraphs: [...(first ? [first] : []), quarantine, ...rest] }
    }
    if (id !== 'recipients') return texts
    const items = processors(policy).map((key) =>
      t(`sections.recipients.processors.${key}`, values),
    )
    return { ...texts, items }
  })
  return <LegalDocument page={page} history="privacy" sections={sections} />
}
