import type { ReactNode } from 'react'
import { preload } from 'react-dom'
import { AppContext } from './app-context.tsx'
import {
  APP_DATA_ID,
  RUNTIME_CONFIG_ID,
  serializeForScript,
  type AppData,
  type RuntimeConfig,
} from '#shared/page-data.ts'
import { TOUCH_ICON } from '#shared/icons.ts'
import { THEME_COLORS } from '#shared/theme.ts'

type DocumentProps = {
  data: AppData
  /** The serialized `data`, rendered verbatim so the block hydrates unchanged. */
  json: string
  runtime: RuntimeConfig
  children: ReactNode
}

/**
 * The whole HTML document, `<html>` included: the server renders it and the browser hydrates it
 * as one (docs/decisions/whole-document-rendered-and-hydrated-by-react.md). React hoists page
 * titles, meta and links into its `<head>`.
 */
export function Document({ data, json, runtime, children }: DocumentProps) {
  const { assets } = data
  for (const href of assets.fonts) {
    preload(href, { as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' })
  }
  return (
    <html lang={data.locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {Object.entries(THEME_COLORS).map(([scheme, color]) => (
          <meta
            key={scheme}
            name="theme-color"
            content={color}
            media={`(prefers-color-scheme: ${scheme})`}
          />
        ))}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href={TOUCH_ICON} />
        <link rel="manifest" href="/site.webmanifest" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} precedence="default" />
        ))}
      </head>
      <body>
        <AppContext
          value={{
            locale: data.locale,
            baseUrl: data.baseUrl,
            year: data.year,
            policy: data.policy,
            devError: data.devError,
            formState: data.formState,
            formToken: data.formToken,
          }}
        >
          {children}
        </AppContext>
        <script
          type="application/json"
          id={RUNTIME_CONFIG_ID}
          dangerouslySetInnerHTML={{ __html: serializeForScript(runtime) }}
        />
        <script
          type="application/json"
          id={APP_DATA_ID}
          // JSON, not executable: allowed under a CSP without 'unsafe-inline'.
          dangerouslySetInnerHTML={{ __html: json }}
        />
      </body>
    </html>
  )
}
