import { useTranslation } from '../texts.tsx'
import { FEATURES, PARTNERS, STATS, TESTIMONIALS, initials, statValue } from '#shared/home.ts'
import { SERVICES, servicePath } from '#shared/services.ts'
import { useApp } from '../app-context.tsx'
import { usePageTexts } from '../use-page-texts.ts'
import { IconCard, MoreLink } from '../components/icon-card.tsx'
import { ContactForm } from '../components/contact-form.tsx'
import { HeroIllustration } from '../components/hero-illustration.tsx'
import { Icon } from '../components/icons.tsx'
import { LocalizedLink } from '../components/localized-link.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { Section } from '../components/section.tsx'
import type { ScreenProps } from '../routes.tsx'
import '../styles/pages/home.css'

export function HomePage({ page }: ScreenProps) {
  const { t } = useTranslation('home')
  const { t: tc } = useTranslation(['common', 'service-cards'])
  const { locale } = useApp()
  const { badge, title } = usePageTexts(page)
  return (
    <>
      <PageMeta page={page} />

      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-copy">
            <p className="eyebrow">{badge}</p>
            <h1 id="hero-title">{title}</h1>
            <p className="hero-lead">{t('hero.lead')}</p>
            <div className="hero-actions">
              <LocalizedLink to="/contact" className="button button-primary button-large">
                {t('hero.primaryCta')}
                <Icon name="arrowRight" />
              </LocalizedLink>{' '}
              <LocalizedLink to="/services" className="button button-ghost button-large">
                {t('hero.secondaryCta')}
              </LocalizedLink>
            </div>
          </div>
          <HeroIllustration />
        </div>
      </section>

      <section className="partners" aria-labelledby="partners-title">
        <div className="container">
          <h2 id="partners-title" className="partners-title">
            {t('partners.heading')}
          </h2>
          <ul className="partner-list">
            {PARTNERS.map((name) => (
              <li key={name} className="partner-wordmark">
                {name}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <Section id="features" title={t('features.heading')} intro={t('features.intro')}>
        <ul className="feature-grid">
          {FEATURES.map(({ key, icon }) => (
            <IconCard
              key={key}
              icon={icon}
              title={t(`features.${key}.title`)}
              text={t(`features.${key}.text`)}
            />
          ))}
        </ul>
      </Section>

      <section className="stats-band" aria-labelledby="stats-title">
        <div className="container">
          <h2 id="stats-title" className="visually-hidden">
            {t('stats.heading')}
          </h2>
          <dl className="stats-grid">
            {STATS.map((stat) => (
              <div key={stat.key} className="stat">
                <dt>{t(`stats.${stat.key}`)}</dt>
                <dd>{statValue(stat, locale)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <Section id="services" title={t('services.heading')} intro={t('services.intro')} isMuted>
        <ul className="service-grid">
          {SERVICES.map(({ slug, icon }) => (
            <IconCard
              key={slug}
              className="service-card"
              icon={icon}
              title={tc(`service-cards:${slug}.name`)}
              text={tc(`service-cards:${slug}.teaser`)}
            >
              <MoreLink
                to={servicePath(slug)}
                label={t('services.learnMore')}
                name={tc(`service-cards:${slug}.name`)}
              />
            </IconCard>
          ))}
        </ul>
        <p className="section-footer">
          <LocalizedLink to="/services" className="button button-secondary">
            {t('services.viewAll')}
            <Icon name="arrowRight" />
          </LocalizedLink>
        </p>
      </Section>

      <Section id="testimonials" title={t('testimonials.heading')}>
        <ul className="testimonial-grid">
          {TESTIMONIALS.map(({ key, name, isDoctor }) => (
            <li key={key}>
              <figure className="testimonial">
                <blockquote>
                  <p>{t(`testimonials.${key}.quote`)}</p>
                </blockquote>
                <figcaption>
                  <div className="avatar" aria-hidden="true">
                    {initials(name)}
                  </div>
                  <div>
                    <strong>{isDoctor ? t('testimonials.doctor', { name }) : name}</strong>
                    <div className="testimonial-role">{t(`testimonials.${key}.role`)}</div>
                  </div>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Section>

      <section id="contact" className="section section-contact" aria-labelledby="contact-title">
        <div className="container contact-grid">
          <header className="contact-intro">
            <h2 id="contact-title">{t('contact.heading')}</h2>
            <p>{t('contact.intro')}</p>
          </header>
          <ContactForm form="home" />
        </div>
      </section>
    </>
  )
}
