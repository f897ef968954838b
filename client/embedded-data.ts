import { APP_DATA_ID, type AppData } from '#shared/page-data.ts'

let embedded: { data: AppData; json: string } | null = null

/**
 * The data the server embedded in the page (`#app-data`), read and parsed once: the entry
 * needs its asset list before hydration, hydration the rest and the text verbatim.
 */
export function embeddedData(): { data: AppData; json: string } {
  if (embedded) return embedded
  const json = document.getElementById(APP_DATA_ID)?.textContent
  if (!json) throw new Error(`#${APP_DATA_ID} is missing`)
  embedded = { data: JSON.parse(json) as AppData, json }
  return embedded
}
