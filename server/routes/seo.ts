import escapeHtml from 'escape-html'
import type { FastifyInstance } from 'fastify'
import { DEFAULT_LOCALE, localizePath, LOCALES } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>'

/** Every page URL in every language, each with its language alternates and x-default (docs/languages.md#languages).
 * */
function sitemapXml(baseUrl: string): string {
  const absolute = (path: string) => escapeHtml(`${baseUrl}${path}`)
  const urls = PAGES.flatMap((page) => {
    const alternates = [
      ...LOCALES.map(
        (locale) =>
          `<xhtml:link rel="alternate" hreflang="${locale}" href="${absolute(localizePath(locale, page.path))}"/>`,
      ),
      `<xhtml:link rel="alternate" hreflang="x-default" href="${absolute(localizePath(DEFAULT_LOCALE, page.path))}"/>`,
    ].join('')
    return LOCALES.map(
      (locale) => `<url><loc>${absolute(localizePath(locale, page.path))}</loc>${alternates}</url>`,
    )
  })
  return (
    `${XML_HEADER}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ` +
    `xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`
  )
}

function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${baseUrl}/sitemap.xml\n`
}

/** `/sitemap.xml` and `/robots.txt`, built once from the route table and `APP_BASE_URL`. */
export async function seoRoutes(app: FastifyInstance) {
  const sitemap = sitemapXml(app.config.APP_BASE_URL)
  const robots = robotsTxt(app.config.APP_BASE_URL)
  app.get('/sitemap.xml', async (_request, reply) => {
    reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600')
    return sitemap
  })
  app.get('/robots.txt', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600')
    return robots
  })
}
