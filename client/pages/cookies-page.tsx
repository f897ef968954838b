import { useTranslation } from '../texts.tsx'
import { BROWSER_STORAGE } from '#shared/browser-storage.ts'
import { COMPANY } from '#shared/company.ts'
import { COOKIE_POLICY_SECTIONS, COOKIE_SECTION_TEXTS_WITH_CDN } from '#shared/legal.ts'
import type { ScreenPage } from '#shared/pages.ts'
import { useApp } from '../app-context.tsx'
import { LegalDocument } from '../components/legal-document.tsx'
import type { ScreenProps } from '../routes.tsx'
import { legalSections, usePolicyValues } from '../components/legal-sections.ts'

/**
 * `/cookie-policy`: exactly what the site stores in the browser (`BROWSER_STORAGE`): the
 * language cookie and the reload guard's session storage entry. With a CDN, the sections
 * that would otherwise deny one have their own text (`COOKIE_SECTION_TEXTS_WITH_CDN`).
 */
export function CookiesPage({ page }: ScreenProps<ScreenPage<'cookies'>>) {
  const { t } = useTranslation('cookies')
  const { policy } = useApp()
  const values = usePolicyValues()
  const sections = legalSections(COOKIE_POLICY_SECTIONS, (id) => {
    const withCdn = policy.hasCdn ? COOKIE_SECTION_TEXTS_WITH_CDN[id] : undefined
    return withCdn
      ? t(withCdn, { ...values, returnObjects: true })
      : t(`sections.${id}`, { ...values, returnObjects: true })
  })
  return (
    <LegalDocument page={page} history="cookies" sections={sections}>
      <div className="table-scroll">
        <table className="data-table">
          <caption>{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('table.name')}</th>
              <th scope="col">{t('table.provider')}</th>
              <th scope="col">{t('table.purpose')}</th>
              <th scope="col">{t('table.lifetime')}</th>
              <th scope="col">{t('table.type')}</th>
            </tr>
          </thead>
          <tbody>
            {BROWSER_STORAGE.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">
                  <code>{entry.name}</code>
                </th>
                <td>{COMPANY.brand}</td>
                <td>{t(`table.entries.${entry.id}.purpose`)}</td>
                <td>{t(`table.entries.${entry.id}.lifetime`, values)}</td>
                <td>{t(`table.entries.${entry.id}.type`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </LegalDocument>
  )
}
