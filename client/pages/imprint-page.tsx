import { useTranslation } from '../texts.tsx'
import { COMPANY, companyPlaceholders, phoneHref, postalAddressLines } from '#shared/company.ts'
import { IMPRINT_SECTIONS } from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import { LineBreaks } from '../components/company-address.tsx'
import type { ScreenPage } from '#shared/pages.ts'
import { LegalDocument } from '../components/legal-document.tsx'
import type { ScreenProps } from '../routes.tsx'
import { legalSections } from '../components/legal-sections.ts'

/** `/imprint`: the provider information of § 5 DDG for a Partnerschaftsgesellschaft. */
export function ImprintPage({ page }: ScreenProps<ScreenPage<'imprint'>>) {
  const { t } = useTranslation('imprint')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  // The summonable address of § 5 (1) no. 1 DDG, with the country for visitors abroad.
  const addressLines = postalAddressLines(locale)
  const sections = legalSections(IMPRINT_SECTIONS, (id) =>
    t(`sections.${id}`, { ...values, returnObjects: true }),
  )
  return (
    <LegalDocument page={page} sections={sections}>
      <dl className="facts">
        <dt>{t('labels.provider')}</dt>
        <dd>{COMPANY.legalName}</dd>
        <dt>{t('labels.legalForm')}</dt>
        <dd>{t('labels.legalFormValue')}</dd>
        <dt>{t('labels.address')}</dt>
        <dd>
          <LineBreaks lines={addressLines} />
        </dd>
        <dt>{t('labels.representedBy')}</dt>
        <dd>{values.partners}</dd>
        <dt>{t('labels.email')}</dt>
        <dd>
          <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a>
        </dd>
        <dt>{t('labels.phone')}</dt>
        <dd>
          <a href={phoneHref(COMPANY.phone)}>{COMPANY.phone}</a>
        </dd>
        <dt>{t('labels.register')}</dt>
        <dd>{t('labels.registerValue', values)}</dd>
        <dt>{t('labels.vatId')}</dt>
        <dd>{COMPANY.vatId}</dd>
        <dt>{t('labels.responsible')}</dt>
        <dd>{[COMPANY.contentResponsible, ...addressLines].join(', ')}</dd>
      </dl>
    </LegalDocument>
  )
}
