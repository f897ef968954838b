/**
 * What moves on the page, or would on a hover or a change of state: the animations running
 * now (by kind) and every element with a transition or an animation longer than 1 ms. Runs in
 * the page (Playwright's `evaluate`, the other engines' drivers), so it uses nothing but the
 * DOM.
 */
export function movingElements(): string[] {
  const seconds = (value: string) =>
    Math.max(
      ...value
        .split(',')
        .map((part) => parseFloat(part) * (part.trim().endsWith('ms') ? 0.001 : 1)),
    )
  const running = document.getAnimations().map((animation) => animation.constructor.name)
  const styled = [...document.querySelectorAll('*')]
    .filter((element) => {
      const style = getComputedStyle(element)
      return (
        seconds(style.transitionDuration) > 0.001 ||
        (style.animationName !== 'none' && seconds(style.animationDuration) > 0.001)
      )
    })
    .map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}`)
  return [...running, ...styled]
}
