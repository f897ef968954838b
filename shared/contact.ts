/** Service interest values of the contact forms (DESIGN.md 6), in display order. */
export const SERVICE_INTEREST_VALUES = [
  'modernization',
  'presence',
  'cloud',
  'security',
  'api',
  'managed',
  'other',
] as const

export type ServiceInterest = (typeof SERVICE_INTEREST_VALUES)[number]

/** The contact page offers every option; the home page a shorter list ending with "other". */
export const SERVICE_INTERESTS = {
  full: SERVICE_INTEREST_VALUES,
  short: ['modernization', 'cloud', 'security', 'managed', 'other'],
} as const satisfies Record<string, readonly ServiceInterest[]>

export function isServiceInterest(value: unknown): value is ServiceInterest {
  return typeof value === 'string' && (SERVICE_INTEREST_VALUES as readonly string[]).includes(value)
}
