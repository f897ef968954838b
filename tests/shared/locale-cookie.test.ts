import { describe, expect, it } from 'vitest'
import { localeCookie } from '#shared/locales.ts'

describe('localeCookie', () => {
  it('has the attributes docs/languages.md#languages fixes', () => {
    expect(localeCookie('de', false)).toBe(
      'i18n_redirected=de; Max-Age=31536000; Path=/; SameSite=Lax',
    )
    expect(localeCookie('pl', true)).toBe(
      'i18n_redirected=pl; Max-Age=31536000; Path=/; SameSite=Lax; Secure',
    )
  })
})
