import { useCallback } from 'react'
import { useNavigate } from 'react-router-dom'
import { resolveNavigation } from '#shared/navigation.ts'

type NavigateToOptions = { external?: boolean; replace?: boolean }

/**
 * The one way code navigates (links are `<LocalizedLink>`): internal paths go through the
 * router, another origin only with `external: true`, and `javascript:`, `data:`, `blob:` or
 * `vbscript:` URLs throw an error naming the protocol.
 */
export function useNavigateTo() {
  const navigate = useNavigate()
  return useCallback(
    (to: string, options: NavigateToOptions = {}) => {
      const target = resolveNavigation(to, {
        external: options.external,
        origin: window.location.origin,
      })
      if (target.kind === 'internal') {
        void navigate(target.path, { replace: options.replace })
      } else if (options.replace) {
        window.location.replace(target.url)
      } else {
        window.location.assign(target.url)
      }
    },
    [navigate],
  )
}
