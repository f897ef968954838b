import { useTranslation } from 'react-i18next'
import { SECURITY_CAPABILITIES, SECURITY_FRAMEWORKS } from '#shared/services.ts'
import { Icon } from './icons.tsx'
import { Section } from './section.tsx'

/** Security & compliance: the six capabilities. */
export function SecurityCapabilities() {
  const { t } = useTranslation('service-security-compliance')
  return (
    <Section
      id="capabilities"
      title={t('capabilities.heading')}
      intro={t('capabilities.intro')}
      isMuted
    >
      <ul className="card-grid">
        {SECURITY_CAPABILITIES.map(({ key, icon }) => (
          <li key={key} className="feature-card">
            <span className="icon-badge">
              <Icon name={icon} />
            </span>
            <h3>{t(`capabilities.items.${key}.title`)}</h3>
            <p>{t(`capabilities.items.${key}.text`)}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}

/** Security & compliance: the nine frameworks and standards. */
export function SecurityFrameworks() {
  const { t } = useTranslation('service-security-compliance')
  return (
    <Section id="frameworks" title={t('frameworks.heading')} intro={t('frameworks.intro')}>
      <ul className="framework-grid">
        {SECURITY_FRAMEWORKS.map((key) => (
          <li key={key} className="framework">
            <strong className="framework-name">{t(`frameworks.items.${key}.name`)}</strong>
            <span>{t(`frameworks.items.${key}.text`)}</span>
          </li>
        ))}
      </ul>
    </Section>
  )
}
