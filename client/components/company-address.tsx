import { Fragment } from 'react'
import { COMPANY, postalAddressLines } from '#shared/company.ts'
import { useApp } from '../app-context.tsx'

type LineBreaksProps = { lines: readonly string[] }

/** Lines of an address, separated by `<br>` (phrasing content: fits a `dd` or an `address`). */
export function LineBreaks({ lines }: LineBreaksProps) {
  return lines.map((line, index) => (
    <Fragment key={line}>
      {index > 0 ? <br /> : null}
      {line}
    </Fragment>
  ))
}

/**
 * The company's postal address from the company facts, as an `<address>`: legal name, street,
 * postal code and city, and the country in the page's language. `<address>` is flow content, so
 * its parent must be a block (`div`, `li`, `dd`), never a `span` or `p`.
 */
export function CompanyAddress() {
  const { locale } = useApp()
  return (
    <address>
      <LineBreaks lines={[COMPANY.legalName, ...postalAddressLines(locale)]} />
    </address>
  )
}
