{{/* The release's name for docshelf's objects (the release name, or <release>-docshelf). */}}
{{- define "docshelf.fullname" -}}
{{- if contains "docshelf" .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-docshelf" .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "docshelf.labels" -}}
app.kubernetes.io/name: docshelf
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: docshelf
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component: (list $ "gateway"). */}}
{{- define "docshelf.selector" -}}
{{- $ := index . 0 -}}
app.kubernetes.io/name: docshelf
app.kubernetes.io/instance: {{ $.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "docshelf.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "docshelf.secretName" -}}
{{- default (include "docshelf.fullname" .) .Values.existingSecret -}}
{{- end -}}

{{- define "docshelf.natsUrl" -}}
{{- if .Values.nats.bundled -}}
{{- printf "nats://%s-nats:4222" (include "docshelf.fullname" .) -}}
{{- else -}}
{{- required "nats.url is required when nats.bundled is false" .Values.nats.url -}}
{{- end -}}
{{- end -}}

{{/* Pod anti-affinity for the pods matching the selector labels given: (list $ (dict ...labels)). */}}
{{- define "docshelf.antiAffinity" -}}
{{- $ := index . 0 -}}
podAntiAffinity:
{{- if eq $.Values.podAntiAffinity "hard" }}
  requiredDuringSchedulingIgnoredDuringExecution:
    - topologyKey: kubernetes.io/hostname
      labelSelector:
        matchLabels:
          {{- toYaml (index . 1) | nindent 10 }}
{{- else }}
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- toYaml (index . 1) | nindent 12 }}
{{- end }}
{{- end -}}

{{/* Pod-level settings every workload of the chart shares. */}}
{{- define "docshelf.podCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A secret key as an env entry: (list $ "NAME" "KEY"). */}}
{{- define "docshelf.secretEnv" -}}
{{- $ := index . 0 -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ include "docshelf.secretName" $ }}
      key: {{ index . 2 }}
{{- end -}}

{{/* SMTP_URL from the Secret's optional key SMTP_URL (the chart's, from mail.smtpUrl, or existingSecret's): absent, no mail. */}}
{{- define "docshelf.smtpEnv" -}}
- name: SMTP_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "docshelf.secretName" . }}
      key: SMTP_URL
      optional: true
{{- end -}}

{{/* The docshelf services that keep collections (every one but the gateway), each with its own MongoDB user and database. */}}
{{- define "docshelf.storeServices" -}}
{{- $out := list }}
{{- range $service, $_ := .Values.scaled.services }}{{ if ne $service "gateway" }}{{ $out = append $out $service }}{{ end }}{{ end }}
{{- join " " $out }}
{{- end -}}

{{/* The Secret key of a service's MongoDB password: MONGO_PASSWORD_CHANGE_REQUESTS for change-requests. */}}
{{- define "docshelf.mongoPasswordKey" -}}
MONGO_PASSWORD_{{ . | upper | replace "-" "_" }}
{{- end -}}

{{/* The bundled MongoDB's members, host:port separated by commas. */}}
{{- define "docshelf.mongoHosts" -}}
{{- $name := printf "%s-mongodb" (include "docshelf.fullname" .) }}
{{- $hosts := list }}
{{- range $i := until (int .Values.mongodb.replicas) }}{{ $hosts = append $hosts (printf "%s-%d.%s:27017" $name $i $name) }}{{ end }}
{{- join "," $hosts }}
{{- end -}}

{{/* The probes of a docshelf container: (list "http" "/health") = port name, startup path. */}}
{{- define "docshelf.probes" -}}
# /started (or the gateway's /health, which only exists once its broker started) passes only once the
# broker has started; give it up to 3 minutes, then liveness /health and readiness /ready.
startupProbe:
  httpGet: { path: {{ index . 1 }}, port: {{ index . 0 }} }
  periodSeconds: 5
  failureThreshold: 36
livenessProbe:
  httpGet: { path: /health, port: {{ index . 0 }} }
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet: { path: /ready, port: {{ index . 0 }} }
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
lifecycle:
  # Out of the Service's endpoints first, then SIGTERM: in-flight requests get up to 10 s.
  preStop:
    exec:
      command: ["sleep", "5"]
{{- end -}}
