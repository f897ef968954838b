/**
 * Prometheus label matchers that pick one deployment (`namespace="web", service="website"`):
 * only matchers, nothing that could change the query around them. Checked where an operator
 * gives them (the report's `--selector`, `INSIGHT_SUMMARY_SELECTOR`) and before a query.
 */
export const SELECTOR = /^\s*(?:[A-Za-z_]\w*\s*(?:=|!=|=~|!~)\s*"(?:[^"\\\n]|\\.)*"\s*(?:,\s*|$))*$/
