{{/*
Name of the chart, or nameOverride. Kubernetes names are limited to 63 characters.
*/}}
{{- define "modernization-partners-web.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name of the release's resources: fullnameOverride, or "<release>-<name>" unless the
release name already contains the name. Truncated to 63 characters (DNS label limit).
*/}}
{{- define "modernization-partners-web.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart name and version, as used by the helm.sh/chart label.
*/}}
{{- define "modernization-partners-web.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels that select the website's pods. They never change after the first install.
*/}}
{{- define "modernization-partners-web.selectorLabels" -}}
app.kubernetes.io/name: {{ include "modernization-partners-web.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: web
{{- end }}

{{/*
Labels of every resource of the website.
*/}}
{{- define "modernization-partners-web.labels" -}}
helm.sh/chart: {{ include "modernization-partners-web.chart" . }}
{{ include "modernization-partners-web.selectorLabels" . }}
app.kubernetes.io/version: {{ include "modernization-partners-web.imageTag" . | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Label that lets a pod of the release's namespace through the NetworkPolicy (used by helm test).
*/}}
{{- define "modernization-partners-web.clientLabel" -}}
{{ include "modernization-partners-web.fullname" . | trunc 56 | trimSuffix "-" }}-client: "true"
{{- end }}

{{/*
Name of the ServiceAccount the pods run as.
*/}}
{{- define "modernization-partners-web.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "modernization-partners-web.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Image tag: image.tag, or the chart's appVersion.
*/}}
{{- define "modernization-partners-web.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/*
Image reference: repository:tag, or repository:tag@digest when a digest is given.
*/}}
{{- define "modernization-partners-web.image" -}}
{{- $ref := printf "%s:%s" .Values.image.repository (include "modernization-partners-web.imageTag" .) }}
{{- if .Values.image.digest }}
{{- $ref = printf "%s@%s" $ref .Values.image.digest }}
{{- end }}
{{- $ref }}
{{- end }}

{{/*
Name of the Secret holding SMTP_URL and REDIS_URL.
*/}}
{{- define "modernization-partners-web.secretName" -}}
{{- default (include "modernization-partners-web.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/*
"true" when the pods may use Redis: a redisUrl is given, or an existing Secret may hold one.
*/}}
{{- define "modernization-partners-web.mayUseRedis" -}}
{{- if or .Values.secrets.redisUrl .Values.secrets.existingSecret }}true{{ end }}
{{- end }}

{{/*
Name of the PersistentVolumeClaim of the outbox.
*/}}
{{- define "modernization-partners-web.outboxClaimName" -}}
{{- default (printf "%s-outbox" (include "modernization-partners-web.fullname" .)) .Values.persistence.existingClaim }}
{{- end }}

{{/*
Checks across values that the JSON schema cannot express. Fails the render with a message.
*/}}
{{- define "modernization-partners-web.validate" -}}
{{- $needed := add .Values.preStopSleepSeconds .Values.shutdownGraceSeconds }}
{{- if le (int .Values.terminationGracePeriodSeconds) (int $needed) }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be greater than preStopSleepSeconds + shutdownGraceSeconds (%d), or Kubernetes kills the app while it drains" (int .Values.terminationGracePeriodSeconds) (int $needed)) }}
{{- end }}
{{- if and .Values.autoscaling.enabled (gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not be greater than autoscaling.maxReplicas" }}
{{- end }}
{{- if and .Values.ingress.enabled (not .Values.ingress.hosts) }}
{{- fail "ingress.enabled needs at least one entry in ingress.hosts" }}
{{- end }}
{{- end }}
