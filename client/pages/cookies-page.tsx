import { useTranslation } from 'react-i18next'
import { COMPANY, companyPlaceholders } from '#shared/company.ts'
import { COOKIE_POLICY_SECTIONS, COOKIES, LEGAL_UPDATED } from '#shared/legal.ts'
import { useApp } from '../app-context.tsx'
import { LegalDocument } from '../components/legal-document.tsx'
import { legalSections } from '../components/legal-sections.ts'

/** `/cookie-policy`: exactly the cookies the site sets (today only the language cookie). */
export function CookiesPage() {
  const { t } = useTranslation('cookies')
  const { locale } = useApp()
  const values = companyPlaceholders(locale)
  const sections = legalSections(COOKIE_POLICY_SECTIONS, (id) =>
    t(`sections.${id}`, { ...values, returnObjects: true }),
  )
  return (
    <LegalDocument namespace="cookies" updated={LEGAL_UPDATED.cookies} sections={sections}>
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
            {COOKIES.map((cookie) => (
              <tr key={cookie.name}>
                <th scope="row">
                  <code>{cookie.name}</code>
                </th>
                <td>{COMPANY.brand}</td>
                <td>{t('table.languagePurpose')}</td>
                <td>{t('table.languageLifetime')}</td>
                <td>{t('table.languageType')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </LegalDocument>
  )
}
