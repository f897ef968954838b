import type {
  BreadcrumbList,
  ContactPoint,
  Graph,
  IdReference,
  ImageObject,
  Language,
  OpeningHoursSpecification,
  Person,
  PostalAddress,
  ProfessionalService,
  Service,
  Thing,
  WebPage,
  WebSite,
} from 'schema-dts'
import { COMPANY } from '#shared/company.ts'
import { ICONS } from '#shared/icons.ts'
import { LOCALE_INFO, LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import type { Page } from '#shared/pages.ts'
import { breadcrumbTrail, pageLabel, type PageTexts, type Translate } from '#shared/page-texts.ts'
import { SHARE_IMAGE_SIZE } from '#shared/share-images.ts'
import { TEAM, teamMember, teamPath, type TeamMember } from '#shared/team.ts'

/**
 * schema.org data for search engines, one `@graph` per page, made from the company facts, the
 * page table and the page's texts (docs/languages.md#share-previews-and-structured-data). Nodes
 * refer to each other by `@id`; the organization has one identity on every page and in every
 * language.
 */

export type StructuredDataContext = {
  baseUrl: string
  locale: Locale
  t: Translate
  /** Absolute URL of the page's share image, when the build made one. */
  image?: string
}

/** Pages that describe the company in full; the others refer to it by `@id`. */
const DESCRIBES_COMPANY: ReadonlySet<Page['screen']> = new Set(['home', 'contact', 'imprint'])

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const

function ids(baseUrl: string) {
  return {
    organization: `${baseUrl}/#organization`,
    website: `${baseUrl}/#website`,
    person: (member: TeamMember) => `${baseUrl}${teamPath(member.slug)}#person`,
  }
}

const ref = (id: string): IdReference => ({ '@id': id })

/** `9:00` → `09:00`: schema.org times are `hh:mm`. */
function clock(time: string): string {
  return time.padStart(5, '0')
}

function organization({ baseUrl, locale }: StructuredDataContext): ProfessionalService {
  const id = ids(baseUrl)
  const { address, businessHours } = COMPANY
  const hours: OpeningHoursSpecification = {
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: [...WEEKDAYS],
    opens: clock(businessHours.weekdays.opens),
    closes: clock(businessHours.weekdays.closes),
  }
  const languages: Language[] = LOCALES.map((code) => ({
    '@type': 'Language',
    name: LOCALE_INFO[code].name,
    alternateName: code,
  }))
  const contactPoint: ContactPoint = {
    '@type': 'ContactPoint',
    contactType: 'customer service',
    email: COMPANY.email,
    telephone: COMPANY.phone,
    availableLanguage: languages,
    hoursAvailable: hours,
    areaServed: [...COMPANY.areaServed],
  }
  const postalAddress: PostalAddress = {
    '@type': 'PostalAddress',
    streetAddress: address.street,
    postalCode: address.postalCode,
    addressLocality: address.city,
    addressCountry: address.country,
  }
  const logo = ICONS.find((icon) => icon.file === 'icon-512.png') ?? ICONS[0]
  return {
    '@type': 'ProfessionalService',
    '@id': id.organization,
    name: COMPANY.brand,
    legalName: COMPANY.legalName,
    // The root, which answers in the visitor's language: one identity, the same on every page.
    url: `${baseUrl}/`,
    logo: {
      '@type': 'ImageObject',
      url: `${baseUrl}/${logo.file}`,
      width: `${logo.size}`,
      height: `${logo.size}`,
    },
    email: COMPANY.email,
    telephone: COMPANY.phone,
    vatID: COMPANY.vatId,
    foundingDate: String(COMPANY.foundingYear),
    founder: TEAM.map((member) => ({
      '@type': 'Person',
      '@id': id.person(member),
      name: member.name,
      url: `${baseUrl}${localizePath(locale, teamPath(member.slug))}`,
    })),
    address: postalAddress,
    contactPoint,
    openingHoursSpecification: hours,
    areaServed: [...COMPANY.areaServed],
    knowsLanguage: [...LOCALES],
  }
}

function website({ baseUrl }: StructuredDataContext): WebSite {
  const id = ids(baseUrl)
  return {
    '@type': 'WebSite',
    '@id': id.website,
    url: `${baseUrl}/`,
    name: COMPANY.brand,
    inLanguage: [...LOCALES],
    publisher: ref(id.organization),
  }
}

function breadcrumbs(page: Page, url: string, context: StructuredDataContext): BreadcrumbList {
  const { baseUrl, locale, t } = context
  return {
    '@type': 'BreadcrumbList',
    '@id': `${url}#breadcrumb`,
    itemListElement: breadcrumbTrail(page).map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: pageLabel(crumb, t),
      item: `${baseUrl}${localizePath(locale, crumb.path)}`,
    })),
  }
}

/** What the page is about, beyond the page itself: its service or its person. */
function subject(page: Page, url: string, texts: PageTexts, context: StructuredDataContext) {
  const id = ids(context.baseUrl)
  if (page.screen === 'service') {
    const service: Service = {
      '@type': 'Service',
      '@id': `${url}#service`,
      name: texts.label,
      serviceType: texts.label,
      description: texts.description,
      url,
      provider: ref(id.organization),
      areaServed: [...COMPANY.areaServed],
    }
    return service
  }
  if (page.screen === 'team') {
    const member = teamMember(page.member)
    const person: Person = {
      '@type': 'Person',
      '@id': id.person(member),
      name: member.name,
      jobTitle: texts.badge,
      url,
      worksFor: ref(id.organization),
      knowsLanguage: [...member.languages],
    }
    return person
  }
  return undefined
}

function webPageType(page: Page): 'WebPage' | 'AboutPage' | 'ContactPage' | 'ProfilePage' {
  switch (page.screen) {
    case 'about':
      return 'AboutPage'
    case 'contact':
      return 'ContactPage'
    case 'team':
      return 'ProfilePage'
    default:
      return 'WebPage'
  }
}

/** The page's graph: the page, its breadcrumbs, what it is about and, where it says who we
 * are, the organization and the website in full. */
export function structuredData(
  page: Page,
  texts: PageTexts,
  context: StructuredDataContext,
): Graph {
  const { baseUrl, locale, image } = context
  const id = ids(baseUrl)
  const url = `${baseUrl}${localizePath(locale, page.path)}`
  const about = subject(page, url, texts, context)
  const isHome = page.screen === 'home'
  const primaryImage: ImageObject | undefined = image
    ? {
        '@type': 'ImageObject',
        url: image,
        width: `${SHARE_IMAGE_SIZE.width}`,
        height: `${SHARE_IMAGE_SIZE.height}`,
      }
    : undefined
  const webPage: WebPage = {
    '@type': webPageType(page),
    '@id': `${url}#webpage`,
    url,
    name: texts.metaTitle,
    description: texts.description,
    inLanguage: locale,
    isPartOf: ref(id.website),
    publisher: ref(id.organization),
    ...(isHome ? {} : { breadcrumb: ref(`${url}#breadcrumb`) }),
    ...(about
      ? { mainEntity: ref(String(about['@id'])) }
      : DESCRIBES_COMPANY.has(page.screen) || page.screen === 'about'
        ? { about: ref(id.organization) }
        : {}),
    ...(primaryImage ? { primaryImageOfPage: primaryImage } : {}),
  }
  const nodes: Thing[] = [webPage]
  if (!isHome) nodes.push(breadcrumbs(page, url, context))
  if (about) nodes.push(about)
  if (DESCRIBES_COMPANY.has(page.screen)) nodes.push(organization(context), website(context))
  return { '@context': 'https://schema.org', '@graph': nodes }
}
