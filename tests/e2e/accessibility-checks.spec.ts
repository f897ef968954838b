import { expect, expectAccessibleInBothThemes, test, waitForHydration } from './fixtures.ts'

// The accessibility engines the crawl relies on must see what they are there to see: axe runs
// in the page itself (docs/decisions/axe-in-the-page.md), so it is shown faults made in the
// page, as a change to the site could make them. Elements are added through the DevTools
// protocol and styled through the CSSOM, which the site's CSP and Trusted Types allow.

test('a picture without a text alternative fails the light theme’s run', async ({ page }) => {
  await page.goto('/about')
  await waitForHydration(page)
  await page.evaluate(() => {
    const image = document.createElement('img')
    image.src = '/favicon.svg'
    image.width = 32
    image.height = 32
    document.querySelector('main')?.append(image)
  })
  await expect(expectAccessibleInBothThemes(page)).rejects.toThrow(/image-alt/)
})

test('text that is readable only in the light theme fails the dark theme’s run', async ({
  page,
}) => {
  await page.goto('/about')
  await waitForHydration(page)
  await page.evaluate(() => {
    const note = document.createElement('p')
    note.textContent = 'Dark grey text that keeps its colour in both themes.'
    note.style.color = '#222222'
    document.querySelector('main')?.append(note)
  })
  // #222 on the light theme's surface is about 15:1: only the dark theme's run can fail it.
  await expect(expectAccessibleInBothThemes(page)).rejects.toThrow(/color-contrast/)
})
