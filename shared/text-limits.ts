/**
 * The longest text, in characters, that the few places with little room take in any language:
 * the header's links, buttons, the footer's links. Keys are `namespace:path`, where a `*` stands
 * for one path segment or one namespace part (`service-*:cta.button`). Every language is checked
 * against them in `npm run check` (tests/locales/translator-checks.test.ts);
 * docs/languages.md#languages.
 */
export const TEXT_LIMITS = [
  {
    keys: ['common:nav.home', 'common:nav.services', 'common:nav.about', 'common:nav.contact'],
    max: 16,
    where: 'the header’s links, on one row with the logo and the language switcher',
  },
  {
    keys: ['common:nav.servicesOverview'],
    max: 24,
    where: 'the first entry of the header’s services menu',
  },
  {
    keys: ['common:form.submit', 'common:form.sending'],
    max: 24,
    where: 'the contact form’s button',
  },
  {
    keys: ['home:hero.primaryCta', 'home:hero.secondaryCta'],
    max: 32,
    where: 'the two large buttons of the home page’s hero',
  },
  {
    keys: ['about:cta.button', 'services:cta.button', 'service-*:cta.button'],
    max: 36,
    where: 'the button of the call-to-action band at the end of a page (a service page’s hero too)',
  },
  {
    keys: ['home:services.learnMore', 'home:services.viewAll'],
    max: 28,
    where: 'the link under each service card and the button below the cards',
  },
  {
    keys: ['common:errors.tryAgain', 'common:errors.reload', 'common:errors.backHome'],
    max: 28,
    where: 'the buttons of the error pages',
  },
  {
    keys: [
      'common:footer.privacy',
      'common:footer.terms',
      'common:footer.cookies',
      'common:footer.imprint',
      'common:footer.accessibility',
    ],
    max: 36,
    where: 'the footer’s links to the legal pages',
  },
] as const satisfies readonly { keys: readonly string[]; max: number; where: string }[]
