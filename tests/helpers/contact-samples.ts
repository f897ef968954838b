import { fieldOptions, type ContactField, type ContactFormId } from '#shared/contact-fields.ts'

/**
 * A value `field` of `form` accepts, made from `text` where the field takes text: an option for
 * a select, an address for an e-mail field, else `text` padded to the field's minimum and cut
 * to its maximum. For the fields a test has no value of its own for: a field added to the table
 * needs no entry in a test.
 */
export function acceptedValue(field: ContactField, form: ContactFormId, text: string): string {
  if (field.kind === 'select') return fieldOptions(field, form).at(-2)?.value ?? ''
  if (field.kind === 'email') return 'grace.hopper@example.com'
  const { min = 0, max = Infinity } = field as { min?: number; max?: number }
  return text.padEnd(min, '.').slice(0, max)
}
