import { defineConfig } from 'i18next-cli'
import { CONTACT_FIELDS } from './shared/contact-fields.ts'
import { LEGAL_HISTORY, LEGAL_TEXTS } from './shared/legal.ts'
import { LOCALES } from './shared/locales.ts'
import { genericTexts, pageTexts, type Translate } from './shared/page-texts.ts'
import { PAGES } from './shared/pages.ts'
import { SERVICES, SUPPORT_TIERS, serviceNamespace } from './shared/services.ts'
import { tableKeysPlugin } from './scripts/lib/i18n-key-plugin.ts'

// i18next-cli (`npm run i18n:keys`, in `npm run check`): the keys the code reads against the
// locale files, both ways. The plugin tells it what the tables decide; why a plugin and not
// ignore lists: docs/decisions/i18next-cli.md.

/** The keys a function of the code reads with the `t` it is given. */
function keysRead(read: (t: Translate) => unknown): string[] {
  const keys: string[] = []
  read((key) => {
    keys.push(key)
    return key
  })
  return keys
}

const datedTexts = Object.keys(LEGAL_HISTORY)
const legalTexts = PAGES.filter((page) => (LEGAL_TEXTS as readonly string[]).includes(page.screen))
/** The services or packages a key part names, all of them for `*`. */
const slugsOf = (part: string) =>
  SERVICES.filter(({ slug }) => part === '*' || slug === part).map(({ slug }) => slug)
const tiersOf = (part: string) =>
  SUPPORT_TIERS.filter(({ key }) => part === '*' || key === part).map(({ key }) => key)

export default defineConfig({
  locales: [...LOCALES],
  extract: {
    input: ['client/**/*.{ts,tsx}', 'shared/**/*.ts', 'server/**/*.ts'],
    ignore: ['**/*.test.ts'],
    output: 'locales/{{language}}/{{namespace}}.json',
    defaultNS: 'common',
    sort: false,
    indentation: 2,
    extractFromComments: false,
  },
  plugins: [
    tableKeysPlugin({
      rewrite: {
        // A service page reads its service's file; every service file has the pattern.
        'client/pages/service-page.tsx': [
          ['const t = useServiceTexts(service)', "const { t } = useTranslation('a-service')"],
        ],
        // A legal page's own file; only dated texts have a history.
        'client/components/legal-document.tsx': [
          ['useTranslation(page.namespaces[0])', "useTranslation('a-legal-text')"],
        ],
        // The lead e-mail's `t` is fixed to MAIL_NAMESPACES, `mail` first.
        'server/services/contact/mail.ts': [[/\bt\((['`])/g, 't($1mail:']],
      },
      entryNamespaces: {
        'a-service': (key) => SERVICES.map(({ slug }) => `${serviceNamespace(slug)}:${key}`),
        'a-legal-text': (key) =>
          legalTexts
            .filter((page) => key !== 'history' || datedTexts.includes(page.screen))
            .map((page) => `${page.namespaces[0]}:${key}`),
      },
      // As `deriveNamespaces` in shared/namespaces.ts makes them.
      derived: (namespace, key) => {
        const [first = '', ...rest] = key.split('.')
        if (namespace === 'service-cards')
          return slugsOf(first).map((slug) => [`${serviceNamespace(slug)}:card`, ...rest].join('.'))
        if (namespace === 'support-plans')
          return [
            'common:form.planOption',
            ...tiersOf(first).flatMap((tier) => [
              `service-managed-it:tiers.items.${tier}.package`,
              `service-managed-it:tiers.items.${tier}.name`,
            ]),
          ]
        return undefined
      },
      tableKeys: [
        // What names each page (shared/page-texts.ts builds the keys from the page's entry).
        ...PAGES.flatMap((page) => keysRead((t) => pageTexts(page, t))),
        ...keysRead(genericTexts),
        // The lead e-mail labels a field by its name, an option by its label (server/services/contact/mail.ts).
        ...CONTACT_FIELDS.flatMap((field) => [
          `mail:${field.name}`,
          ...('options' in field ? field.options.map((option) => option.label) : []),
        ]),
      ],
    }),
  ],
})
