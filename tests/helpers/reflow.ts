/**
 * Visible elements that reach outside the viewport sideways, and text cut off by its own
 * box (an overflow-hidden box whose content is larger), described for the failure message.
 * Content inside a box that scrolls on purpose (`overflow-x: auto`) is exempt. Runs in the
 * page (Playwright's `evaluate`, the other engines' drivers), so it uses nothing but the DOM.
 */
export function cutOffContent(): string[] {
  const width = document.documentElement.clientWidth
  const problems: string[] = []
  if (document.documentElement.scrollWidth > width) {
    problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`)
  }
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()}${element.getAttribute('class') ? `.${(element.getAttribute('class') ?? '').split(' ').join('.')}` : ''} "${element.textContent.trim().slice(0, 40)}"`
  for (const element of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(element)
    if (style.visibility === 'hidden' || style.display === 'none') continue
    if (element.closest('.visually-hidden, .skip-link, [hidden], [aria-hidden="true"]')) continue
    const rect = element.getBoundingClientRect()
    if (rect.width === 0 || rect.height === 0) continue
    let scroller = element.parentElement
    while (scroller && !/auto|scroll/.test(getComputedStyle(scroller).overflowX)) {
      scroller = scroller.parentElement
    }
    if (scroller && scroller !== document.body && scroller !== document.documentElement) continue
    if (rect.right > width + 1 || rect.left < -1) {
      problems.push(
        `${describe(element)} spans ${Math.round(rect.left)}–${Math.round(rect.right)} px`,
      )
    }
    const clips = /hidden|clip/.test(style.overflowX + style.overflowY)
    const hasText = [...element.childNodes].some(
      (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
    )
    if (
      clips &&
      hasText &&
      style.textOverflow !== 'ellipsis' &&
      (element.scrollWidth > element.clientWidth + 1 ||
        element.scrollHeight > element.clientHeight + 1)
    ) {
      problems.push(
        `${describe(element)} cuts its text: ${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight}`,
      )
    }
  }
  return problems
}
