import { useTranslation } from '../texts.tsx'
import { SECURITY_CAPABILITIES, SECURITY_FRAMEWORKS } from '#shared/service-sections.ts'
import { IconCard } from './icon-card.tsx'
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
          <IconCard
            key={key}
            icon={icon}
            title={t(`capabilities.items.${key}.title`)}
            text={t(`capabilities.items.${key}.text`)}
          />
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
            <p>{t(`frameworks.items.${key}.text`)}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}
