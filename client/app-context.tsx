import { createContext, useContext } from 'react'
import type { ContactFormState, FormToken } from '#shared/contact-fields.ts'
import type { PolicyFacts } from '#shared/legal.ts'
import type { Locale } from '#shared/locales.ts'
import type { DevError } from '#shared/page-data.ts'

/** Facts about the current document, identical on server and client. */
export type AppContextValue = {
  locale: Locale
  /** Absolute origin for canonical and alternate links (`APP_BASE_URL`). */
  baseUrl: string
  /** The year shown in the footer, fixed at render time so hydration matches. */
  year: number
  /** What the legal pages state of this deployment's settings. */
  policy: PolicyFacts
  /** Development only: details of a server render error. */
  devError?: DevError
  formState?: ContactFormState
  /** The token of the form this document was rendered with (docs/contact.md#spam-defence). */
  formToken?: FormToken
}

export const AppContext = createContext<AppContextValue | null>(null)

export function useApp(): AppContextValue {
  const value = useContext(AppContext)
  if (!value) throw new Error('useApp() outside <AppContext>')
  return value
}
