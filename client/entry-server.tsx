import { PassThrough, Transform, type Readable } from 'node:stream'
import type { i18n as I18n } from 'i18next'
import { renderToPipeableStream } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
  type HydrationState,
  type StaticHandlerContext,
} from 'react-router-dom'
import type { ContactFormState, FormToken } from '#shared/contact-fields.ts'
import type { PolicyFacts } from '#shared/legal.ts'
import { EVERY_PAGE_NAMESPACES, type LocaleResources, type Namespace } from '#shared/texts.ts'
import { LOCALES, localeBasename, type Locale } from '#shared/locales.ts'
import {
  serializeForScript,
  type AppData,
  type DevError,
  type AssetResolver,
  type RuntimeConfig,
} from '#shared/page-data.ts'
import { Document } from './document.tsx'
import { BOUNDARY_ROUTE_ID, createRoutes, type PageHandle } from './routes.tsx'
import { I18nProvider } from './texts.tsx'

/**
 * The only client module the server imports: renders one request to a stream. Status, headers
 * and redirects are settled before the first byte is sent.
 */

export type RenderOptions = {
  /** Fetch request for the router; its URL carries the site's own origin. */
  request: Request
  locale: Locale
  /** The i18next instance of `locale` (made once at start), every namespace loaded. */
  i18n: I18n
  assets: AssetResolver
  baseUrl: string
  /** Wait for the whole document before sending (crawlers); people get the shell at once. */
  waitForAll: boolean
  timeoutMs: number
  onError: (error: unknown) => void
  /** A plain form post shown again with its errors, input or outcome. */
  formState?: ContactFormState
  /** The token of the form the page shows (the server knows which from the form table). */
  formToken?: FormToken
  runtime: RuntimeConfig
  policy: PolicyFacts
  /**
   * Markup the server adds before `</head>` for crawlers and link previews (Open Graph,
   * structured data), given the page's status; the browser's render never has it, and React
   * skips such extra tags in the head when it hydrates.
   */
  head?: (status: number) => string
  /**
   * Markup that opens the `<head>`, right after its charset: the import map of scripts from a
   * CDN (server/render/integrity.ts), which must precede every module and preload.
   */
  headStart?: string
}

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'document'
      status: number
      headers: Headers
      body: Readable
      /** Resolves true once the body ended without any render error or abort. */
      isComplete: Promise<boolean>
    }

const routes = createRoutes({ loadNamespaces: () => Promise.resolve() })
const handlers = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    createStaticHandler(routes, { basename: localeBasename(locale) || '/' }),
  ]),
) as Record<Locale, ReturnType<typeof createStaticHandler>>

export async function render(options: RenderOptions): Promise<RenderResult> {
  const handler = handlers[options.locale]
  const context = await handler.query(options.request)
  if (context instanceof Response) {
    return {
      kind: 'redirect',
      status: context.status,
      location: context.headers.get('Location') ?? '/',
    }
  }
  try {
    return await renderDocument(handler, context, options)
  } catch (error) {
    // The shell failed (an error while rendering a page): render the 500 page in its place.
    options.onError(error)
    // While developing, the 500 page shows what failed; a production build never includes it.
    const devError = import.meta.env.DEV ? toDevError(error) : undefined
    return renderDocument(handler, internalErrorContext(context), options, devError)
  }
}

function toDevError(error: unknown): DevError {
  return error instanceof Error
    ? { message: error.message, stack: error.stack ?? '' }
    : { message: String(error), stack: '' }
}

function internalErrorContext(context: StaticHandlerContext): StaticHandlerContext {
  return {
    ...context,
    statusCode: 500,
    loaderData: {},
    actionData: null,
    errors: { [BOUNDARY_ROUTE_ID]: new Error('Internal Server Error') },
  }
}

function pageHandles(context: StaticHandlerContext): PageHandle[] {
  return context.matches
    .map((match) => match.route.handle as PageHandle | undefined)
    .filter((handle): handle is PageHandle => handle !== undefined)
}

function resourcesFor(i18n: I18n, locale: Locale, namespaces: readonly Namespace[]) {
  const resources: LocaleResources = {}
  for (const ns of namespaces) {
    resources[ns] = i18n.getResourceBundle(locale, ns) as Record<string, unknown>
  }
  return resources
}

/** Route errors in the form the browser router deserializes; never with internals. */
function serializeErrors(errors: StaticHandlerContext['errors']): HydrationState['errors'] {
  if (!errors) return null
  const serialized: Record<string, unknown> = {}
  for (const [routeId, error] of Object.entries(errors)) {
    serialized[routeId] = isRouteErrorResponse(error)
      ? { ...error, __type: 'RouteErrorResponse' }
      : { message: 'Internal Server Error', __type: 'Error' }
  }
  return serialized
}

function renderDocument(
  handler: ReturnType<typeof createStaticHandler>,
  context: StaticHandlerContext,
  options: RenderOptions,
  devError?: DevError,
): Promise<RenderResult> {
  const { locale, i18n } = options
  const handles = context.errors ? [] : pageHandles(context)
  const data: AppData = {
    locale,
    baseUrl: options.baseUrl,
    year: new Date().getFullYear(),
    policy: options.policy,
    assets: options.assets(handles.map((handle) => handle.source)),
    resources: resourcesFor(i18n, locale, [
      ...EVERY_PAGE_NAMESPACES,
      ...handles.flatMap((h) => h.namespaces),
    ]),
    router: {
      loaderData: context.loaderData,
      actionData: context.actionData,
      errors: serializeErrors(context.errors),
    },
    ...(devError ? { devError } : {}),
    ...(options.formState ? { formState: options.formState } : {}),
    ...(options.formToken ? { formToken: options.formToken } : {}),
  }
  const router = createStaticRouter(handler.dataRoutes, context)
  const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' })
  for (const loaderHeaders of Object.values(context.loaderHeaders)) {
    loaderHeaders.forEach((value, name) => headers.set(name, value))
  }

  const head = options.head?.(context.statusCode)
  return new Promise((resolve, reject) => {
    const body =
      head || options.headStart ? insertIntoHead(options.headStart, head) : new PassThrough()
    let isSettled = false
    let isFlawed = false
    // Only a document rendered without any error may be kept and served again.
    const isComplete = new Promise<boolean>((done) => {
      body.once('end', () => done(!isFlawed))
      body.once('close', () => done(false))
    })
    const ready = () => {
      isSettled = true
      resolve({ kind: 'document', status: context.statusCode, headers, body, isComplete })
      pipe(body)
    }
    const { pipe, abort } = renderToPipeableStream(
      <I18nProvider i18n={i18n}>
        <Document data={data} json={serializeForScript(data)} runtime={options.runtime}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Document>
      </I18nProvider>,
      {
        bootstrapModules: data.assets.bootstrap.map((src) => {
          const integrity = data.assets.integrity?.[src]
          return integrity ? { src, integrity, crossOrigin: 'anonymous' } : src
        }),
        onShellReady: options.waitForAll ? undefined : ready,
        onAllReady: options.waitForAll ? ready : undefined,
        onShellError(error) {
          isSettled = true
          clearTimeout(timer)
          reject(error instanceof Error ? error : new Error(String(error)))
        },
        onError(error) {
          isFlawed = true
          // After the shell: logged; React finishes the document as well as it can.
          if (isSettled) options.onError(error)
        },
      },
    )
    const timer = setTimeout(() => {
      isFlawed = true
      abort(new Error('Render timed out'))
    }, options.timeoutMs)
    body.once('close', () => clearTimeout(timer))
    body.once('end', () => clearTimeout(timer))
  })
}

/** The first tag of React's `<head>`: whatever opens the head goes right after it. */
const HEAD_START = '<meta charSet="utf-8"/>'

/**
 * A pass-through stream that puts `first` right after the head's charset and `last` before
 * its `</head>` (in React's shell, the first chunk it writes); chunks are held back only
 * until the head has passed.
 */
function insertIntoHead(first = '', last = ''): Transform {
  let pending: Buffer | undefined = Buffer.alloc(0)
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!pending) return done(null, chunk)
      const joined = Buffer.concat([pending, chunk])
      const end = joined.indexOf('</head>')
      if (end === -1) {
        pending = joined
        return done()
      }
      pending = undefined
      const parts = [joined.subarray(0, end), Buffer.from(last), joined.subarray(end)]
      if (first) {
        const start = joined.indexOf(HEAD_START)
        if (start === -1 || start > end) {
          return done(new Error(`React's head no longer starts with ${HEAD_START}`))
        }
        const after = start + HEAD_START.length
        parts.splice(
          0,
          1,
          joined.subarray(0, after),
          Buffer.from(first),
          joined.subarray(after, end),
        )
      }
      done(null, Buffer.concat(parts))
    },
    flush(done) {
      done(null, pending?.length ? pending : undefined)
    },
  })
}
