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
"true" when the pods may use an external Redis: a redisUrl is given, or an existing Secret may
hold one (the chart cannot look inside). Never with redis.enabled, whose Redis wins.
*/}}
{{- define "modernization-partners-web.mayUseRedis" -}}
{{- if and (not .Values.redis.enabled) (or .Values.secrets.redisUrl .Values.secrets.existingSecret) }}true{{ end }}
{{- end }}

{{/*
"true" when the pods get a REDIS_URL: the chart's own Redis, or an external one.
*/}}
{{- define "modernization-partners-web.usesRedis" -}}
{{- if or .Values.redis.enabled (include "modernization-partners-web.mayUseRedis" .) }}true{{ end }}
{{- end }}

{{/*
Name of the chart's Redis StatefulSet and of its ClusterIP Service. At most 52 characters: the
StatefulSet controller labels pods with "<name>-<10-character hash>", limited to 63.
*/}}
{{- define "modernization-partners-web.redisFullname" -}}
{{- printf "%s-redis" (include "modernization-partners-web.fullname" . | trunc 46 | trimSuffix "-") }}
{{- end }}

{{/*
Labels that select the chart's Redis pod. They never change after the first install (the
StatefulSet's selector and volumeClaimTemplates are immutable).
*/}}
{{- define "modernization-partners-web.redisSelectorLabels" -}}
app.kubernetes.io/name: {{ include "modernization-partners-web.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: redis
{{- end }}

{{/*
Labels of every resource of the chart's Redis.
*/}}
{{- define "modernization-partners-web.redisLabels" -}}
helm.sh/chart: {{ include "modernization-partners-web.chart" . }}
{{ include "modernization-partners-web.redisSelectorLabels" . }}
app.kubernetes.io/version: {{ .Values.redis.image.tag | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Image reference of the chart's Redis: repository:tag, or repository:tag@digest.
*/}}
{{- define "modernization-partners-web.redisImage" -}}
{{- $ref := printf "%s:%s" .Values.redis.image.repository .Values.redis.image.tag }}
{{- if .Values.redis.image.digest }}
{{- $ref = printf "%s@%s" $ref .Values.redis.image.digest }}
{{- end }}
{{- $ref }}
{{- end }}

{{/*
Name of the Secret holding the chart's Redis password (key REDIS_PASSWORD): redis.auth.existingSecret,
or the one the chart makes (templates/redis-secret.yaml).
*/}}
{{- define "modernization-partners-web.redisAuthSecretName" -}}
{{- .Values.redis.auth.existingSecret | default (printf "%s-auth" (include "modernization-partners-web.redisFullname" .)) }}
{{- end }}

{{/*
The chart's Redis password as the chart makes it: kept from the Secret of the last release
(`lookup`; a new one would lock the running pods out), else made now, once per render (every
template that asks gets the same). Empty with redis.auth.existingSecret, which the chart cannot
read.
*/}}
{{- define "modernization-partners-web.redisPassword" -}}
{{- if and .Values.redis.enabled (not .Values.redis.auth.existingSecret) }}
{{- $memo := .Values.redis.auth }}
{{- if not (hasKey $memo "_renderedPassword") }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "modernization-partners-web.redisAuthSecretName" .) | default dict }}
{{- $kept := get ($existing.data | default dict) "REDIS_PASSWORD" | default "" | b64dec }}
{{- $_ := set $memo "_renderedPassword" ($kept | default (randAlphaNum 48)) }}
{{- end }}
{{- get $memo "_renderedPassword" }}
{{- end }}
{{- end }}

{{/*
A checksum that changes when the chart's Redis password does, for the pod templates of Redis
and the website (both read it at start): a new password restarts both, never one alone. With
redis.auth.existingSecret, of its name only (restart both by hand after changing it).
*/}}
{{- define "modernization-partners-web.redisAuthChecksum" -}}
{{- printf "%s/%s" (include "modernization-partners-web.redisAuthSecretName" .) (include "modernization-partners-web.redisPassword" .) | sha256sum }}
{{- end }}

{{/*
REDIS_URL of the chart's Redis; $(REDIS_PASSWORD) is expanded by the kubelet from the env
variable defined before it.
*/}}
{{- define "modernization-partners-web.redisUrl" -}}
{{- printf "redis://:$(REDIS_PASSWORD)@%s:6379" (include "modernization-partners-web.redisFullname" .) }}
{{- end }}

{{/*
Bytes of a memory size, as a decimal string; empty when the text has another form (then no
check uses it). Call with (list <size> "redis") for redis units (k = 1000, kb = 1024, any
case) or (list <size> "kubernetes") for quantities (k, M, G, T; Ki, Mi, Gi, Ti).
*/}}
{{- define "modernization-partners-web.bytes" -}}
{{- $value := index . 0 }}
{{- $text := kindIs "float64" $value | ternary (int64 $value | toString) (toString $value) | trim }}
{{- if regexMatch "^[0-9]+[A-Za-z]*$" $text }}
{{- $number := regexReplaceAll "^([0-9]+)([A-Za-z]*)$" $text "${1}" }}
{{- $unit := regexReplaceAll "^([0-9]+)([A-Za-z]*)$" $text "${2}" }}
{{- $factors := dict "" 1 "k" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 }}
{{- if eq (index . 1) "redis" }}
{{- $factors = dict "" 1 "b" 1 "k" 1000 "kb" 1024 "m" 1000000 "mb" 1048576 "g" 1000000000 "gb" 1073741824 }}
{{- $unit = lower $unit }}
{{- end }}
{{- if hasKey $factors $unit }}
{{- mul (atoi $number) (get $factors $unit) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Name of the PersistentVolumeClaim of the outbox.
*/}}
{{- define "modernization-partners-web.outboxClaimName" -}}
{{- default (printf "%s-outbox" (include "modernization-partners-web.fullname" .)) .Values.persistence.existingClaim }}
{{- end }}

{{/*
Velero's label that leaves an object out of every backup, with backup.excludeDataVolumes, for
the message stores' volumes and the pods that mount them (helm/README.md, "Backups and
snapshots"). Empty when commonLabels or the given labels (podLabels) already have the key: that
value wins, and the object gets no duplicate key. Takes a dict: "context" (the root) and
optionally "labels".
*/}}
{{- define "modernization-partners-web.backupExcludeLabel" -}}
{{- $key := "velero.io/exclude-from-backup" }}
{{- $values := .context.Values }}
{{- if and $values.backup.excludeDataVolumes (not (hasKey ($values.commonLabels | default dict) $key)) (not (hasKey (.labels | default dict) $key)) -}}
{{ $key }}: "true"
{{- end }}
{{- end }}

{{/*
A pod's annotations (YAML, "{}" when none): the given ones and, with
backup.excludeDataVolumes, Velero's file-system-backup opt-out for the given volumes. Volume
names the given annotations already list under that key (an Istio sidecar's, say) stay beside
the chart's. Takes a dict: "context" (the root), "annotations" and "volumes" (names).
*/}}
{{- define "modernization-partners-web.podAnnotations" -}}
{{- $annotations := deepCopy (.annotations | default dict) }}
{{- if .context.Values.backup.excludeDataVolumes }}
{{- $key := "backup.velero.io/backup-volumes-excludes" }}
{{- $names := list }}
{{- range splitList "," (get $annotations $key | default "") }}
{{- with trim . }}{{ $names = append $names . }}{{ end }}
{{- end }}
{{- range .volumes }}
{{- if not (has . $names) }}{{ $names = append $names . }}{{ end }}
{{- end }}
{{- $_ := set $annotations $key (join "," $names) }}
{{- end }}
{{- toYaml $annotations }}
{{- end }}

{{/*
Checks across values that the JSON schema cannot express. Fails the render with a message.
*/}}
{{- define "modernization-partners-web.validate" -}}
{{- /* The app waits past shutdownGraceSeconds for the mail server's answer to a mail in
  progress, at most its SMTP socket timeout: 600 s, RFC 5321's for the end of DATA
  (SMTP_TIMEOUTS.socketMs in server/services/contact/sender.ts; the chart test keeps the two
  equal). Killed in that wait, the pod leaves a lead the mail server may have to another pod,
  which sends it again. */}}
{{- $smtpWait := 600 }}
{{- $needed := add .Values.preStopSleepSeconds .Values.shutdownGraceSeconds $smtpWait }}
{{- if le (int .Values.terminationGracePeriodSeconds) (int $needed) }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be greater than preStopSleepSeconds + shutdownGraceSeconds + %d (%d): after its requests a stopping pod waits up to %d s for the mail server's answer to a mail in progress (RFC 5321's timeout), and a pod killed in that wait has the lead sent again by another pod; a pod with no mail in progress still exits at once" (int .Values.terminationGracePeriodSeconds) $smtpWait (int $needed) $smtpWait) }}
{{- end }}
{{- if and .Values.autoscaling.enabled (gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not be greater than autoscaling.maxReplicas" }}
{{- end }}
{{- if and .Values.ingress.enabled (not .Values.ingress.hosts) }}
{{- fail "ingress.enabled needs at least one entry in ingress.hosts" }}
{{- end }}
{{- if eq (int .Values.metrics.port) (int .Values.containerPort) }}
{{- fail "metrics.port must differ from containerPort: /metrics has a port of its own so that the Ingress, which routes to containerPort, never reaches it" }}
{{- end }}
{{- $rolling := .Values.updateStrategy.rollingUpdate | default dict }}
{{- if and (eq .Values.updateStrategy.type "RollingUpdate") (has (toString $rolling.maxSurge) (list "0" "0%")) (has (toString $rolling.maxUnavailable) (list "0" "0%")) }}
{{- fail "updateStrategy.rollingUpdate: maxSurge and maxUnavailable cannot both be 0 (a rollout could then never replace a pod); keep maxSurge: 1" }}
{{- end }}
{{- /* Client addresses: the proxies in front by address, never a hop count (the app refuses
  one too): with a count, a client that reaches a pod past the proxy picks its own address
  with X-Forwarded-For, and with it its rate-limit key. Behind a route or an Ingress without
  the list, every visitor has the proxy's address and all share one rate limit. */}}
{{- $trustProxy := kindIs "float64" .Values.config.TRUST_PROXY | ternary (int64 .Values.config.TRUST_PROXY | toString) (toString .Values.config.TRUST_PROXY) | trim }}
{{- $findRange := "the addresses or range of the proxy pods that forward visitors' requests, e.g. --set config.TRUST_PROXY=10.244.0.0/16 for a pod network of that range (helm/README.md#client-addresses-trust_proxy says where to find it for each controller and Gateway)" }}
{{- if regexMatch "^[0-9]+$" $trustProxy }}
{{- fail (printf "config.TRUST_PROXY (%s) is a hop count, which lets a client that reaches a pod directly choose its own address by sending X-Forwarded-For: set %s" $trustProxy $findRange) }}
{{- end }}
{{- if and (or .Values.ingress.enabled .Values.httpRoute.enabled) (not $trustProxy) }}
{{- fail (printf "config.TRUST_PROXY is empty behind %s: every visitor would have the proxy's address and all would share one contact-form rate limit; set %s" (ternary "an Ingress" "an HTTPRoute" .Values.ingress.enabled) $findRange) }}
{{- end }}
{{- /* Redis: the app gets REDIS_URL from exactly one place, and several pods need it. */}}
{{- if and .Values.redis.enabled .Values.secrets.redisUrl }}
{{- fail "secrets.redisUrl names an external Redis, but the chart's own is on (redis.enabled, the default) and the app takes REDIS_URL from one place only: set redis.enabled=false to use the external one, or leave secrets.redisUrl empty" }}
{{- end }}
{{- if not (include "modernization-partners-web.usesRedis" .) }}
{{- $why := "each pod would otherwise keep its own outbox on an emptyDir, and a rolling update during an SMTP outage deletes queued messages" }}
{{- $how := "set redis.enabled=true or secrets.redisUrl (or secrets.existingSecret with a REDIS_URL key)" }}
{{- if .Values.autoscaling.enabled }}
{{- fail (printf "autoscaling.enabled needs Redis: %s, or turn autoscaling off and use replicaCount 1; %s" $how $why) }}
{{- end }}
{{- if gt (int .Values.replicaCount) 1 }}
{{- fail (printf "replicaCount %d needs Redis: %s, or use replicaCount 1; %s" (int .Values.replicaCount) $how $why) }}
{{- end }}
{{- end }}
{{- /* Where waiting leads are kept (docs/decisions/state-off-the-pod.md): never on a folder two
  pods use at once, never on the pod's scratch disk unless the operator says so by name. */}}
{{- if .Values.persistence.enabled }}
{{- if or (ne .Values.updateStrategy.type "Recreate") .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1) }}
{{- fail "persistence.enabled keeps the outbox folder on one volume, which two pods must never use at once (a rolling update or a second replica would send leads twice and cut off each other's writes, and a ReadWriteOnce volume on two nodes hangs the rollout on Multi-Attach): set updateStrategy.type=Recreate and replicaCount=1 (pages are down while a rollout replaces the pod), or keep the chart's Redis (redis.enabled=true, the default) and turn persistence off" }}
{{- end }}
{{- else if and (not (include "modernization-partners-web.usesRedis" .)) (not .Values.allowLosingWaitingLeads) }}
{{- fail "without Redis and without persistence, waiting contact messages live on the pod's emptyDir and are deleted with the pod (a rollout, an eviction, a drain, the emptyDir's sizeLimit): keep the chart's Redis (redis.enabled=true, the default), set secrets.redisUrl, use persistence.enabled=true with updateStrategy.type=Recreate, or accept the loss by name with allowLosingWaitingLeads=true" }}
{{- end }}
{{- /* DKIM: domain, selector and a key together, the domain aligned with MAIL_FROM's (as the
  app checks at start, server/config.ts), so a half-configured release fails here, not in a
  crash-looping pod. */}}
{{- $dkimDomain := .Values.config.DKIM_DOMAIN | lower }}
{{- $dkimKey := .Values.secrets.dkimPrivateKey }}
{{- if or $dkimDomain .Values.config.DKIM_SELECTOR $dkimKey }}
{{- $needs := "DKIM signing needs config.DKIM_DOMAIN, config.DKIM_SELECTOR and the key (secrets.dkimPrivateKey, or DKIM_PRIVATE_KEY in secrets.existingSecret)" }}
{{- if not $dkimDomain }}
{{- fail (printf "config.DKIM_DOMAIN is empty: %s" $needs) }}
{{- end }}
{{- if not .Values.config.DKIM_SELECTOR }}
{{- fail (printf "config.DKIM_SELECTOR is empty: %s" $needs) }}
{{- end }}
{{- if and $dkimKey .Values.secrets.existingSecret }}
{{- fail "secrets.dkimPrivateKey is set beside secrets.existingSecret, which the key would be taken from: put it in that Secret as DKIM_PRIVATE_KEY and leave secrets.dkimPrivateKey empty" }}
{{- end }}
{{- if not (or $dkimKey .Values.secrets.existingSecret) }}
{{- fail (printf "the DKIM key is missing: %s" $needs) }}
{{- end }}
{{- $from := .Values.config.MAIL_FROM | default "website@modernwerk.example" }}
{{- $fromDomain := regexReplaceAll `^.*@([^\s>@]+)>?\s*$` $from "${1}" | lower }}
{{- if not (or (eq $fromDomain $dkimDomain) (hasSuffix (printf ".%s" $dkimDomain) $fromDomain)) }}
{{- fail (printf "config.DKIM_DOMAIN (%s) must be the domain of config.MAIL_FROM (%s) or a parent of it: receivers count a signature for the sender only when it aligns with the From address (DMARC)" $dkimDomain $fromDomain) }}
{{- end }}
{{- end }}
{{- if .Values.redis.enabled }}
{{- $maxmemory := include "modernization-partners-web.bytes" (list .Values.redis.maxmemory "redis") }}
{{- $limit := include "modernization-partners-web.bytes" (list .Values.redis.resources.limits.memory "kubernetes") }}
{{- if and $maxmemory $limit (ge (atoi $maxmemory) (atoi $limit)) }}
{{- fail (printf "redis.maxmemory (%v = %s bytes) must be below redis.resources.limits.memory (%v = %s bytes): at the container limit the kernel kills Redis, below maxmemory Redis refuses writes instead; keep about half the limit" .Values.redis.maxmemory $maxmemory .Values.redis.resources.limits.memory $limit) }}
{{- end }}
{{- end }}
{{- end }}
