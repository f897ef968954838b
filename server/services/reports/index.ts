/**
 * Reports browsers send about the site: violations of the Content Security Policy and of
 * Trusted Types, in both formats browsers use, made one and sorted into a few bounded classes
 * (`csp-reports.ts`), so the counters' series are fixed and nothing of a visitor's page but its
 * route reaches a log. Code outside this folder imports it only from here.
 */

export {
  classify,
  pageOfReport,
  VIOLATION_DIRECTIVES,
  VIOLATION_SOURCES,
  violationsOf,
  type Origins,
} from './csp-reports.ts'
