import { useTranslation } from '../texts.tsx'
import { contactLink } from '#shared/contact-fields.ts'
import { SUPPORT_TIERS } from '#shared/services.ts'
import type { Service } from '#shared/services.ts'
import { Icon } from './icons.tsx'
import { LocalizedLink } from './localized-link.tsx'
import { Section } from './section.tsx'

/**
 * Managed IT: the three support packages, each with a Contact Us button that opens the contact
 * page with "managed IT" and the package preselected.
 */
export function SupportTiers({ service }: { service: Service }) {
  const { t } = useTranslation('service-managed-it')
  return (
    <Section id="tiers" title={t('tiers.heading')} intro={t('tiers.intro')}>
      <ul className="tier-grid">
        {SUPPORT_TIERS.map(({ key, isRecommended }) => (
          <li key={key} className={isRecommended ? 'tier tier-recommended' : 'tier'}>
            {isRecommended ? <p className="tier-flag">{t('tiers.recommended')}</p> : null}
            <p className="tier-package">{t(`tiers.items.${key}.package`)}</p>
            <h3 id={`tier-${key}`}>{t(`tiers.items.${key}.name`)}</h3>
            <p className="tier-description">{t(`tiers.items.${key}.description`)}</p>
            <ul className="check-list">
              {t(`tiers.items.${key}.features`, { returnObjects: true }).map((feature) => (
                <li key={feature}>
                  <Icon name="check" />
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
            <LocalizedLink
              to={contactLink({ service: service.interest, plan: key })}
              className={isRecommended ? 'button button-primary' : 'button button-secondary'}
            >
              {t('tiers.contact')}
              <span className="visually-hidden">: {t(`tiers.items.${key}.name`)}</span>
            </LocalizedLink>
          </li>
        ))}
      </ul>
    </Section>
  )
}
