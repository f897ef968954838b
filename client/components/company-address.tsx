import { COMPANY } from '#shared/company.ts'

/** The company's postal address from the company facts, as an `<address>`. */
export function CompanyAddress() {
  const { address } = COMPANY
  return (
    <address>
      {COMPANY.legalName}
      <br />
      {address.street}
      <br />
      {`${address.postalCode} ${address.city}`}
    </address>
  )
}
