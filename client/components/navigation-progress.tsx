import { useEffect, useState } from 'react'
import { useTranslation } from '../texts.tsx'
import { useNavigation } from 'react-router-dom'
import { LOADING_INDICATOR_DELAY_MS } from '../runtime/constants.ts'

/**
 * A thin progress bar while a lazy page loads, shown only after 200 ms: fast navigations
 * never flash it.
 */
export function NavigationProgress() {
  const { t } = useTranslation()
  const isLoading = useNavigation().state !== 'idle'
  const [isVisible, setIsVisible] = useState(false)

  useEffect(() => {
    if (!isLoading) return
    const timer = setTimeout(() => setIsVisible(true), LOADING_INDICATOR_DELAY_MS)
    return () => {
      clearTimeout(timer)
      setIsVisible(false)
    }
  }, [isLoading])

  return isLoading && isVisible ? (
    <div className="navigation-progress" role="progressbar" aria-label={t('errors.loading')} />
  ) : null
}
