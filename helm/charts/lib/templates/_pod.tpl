{{/*
Probes. .Values.probes.liveness and .readiness each hold one action, HTTP or native gRPC:
  httpGet: {path: /healthz, port: public}       (gateway liveness: the process answers)
  httpGet: {path: /readyz, port: public}        (gateway readiness: Redis, signing keys, each downstream)
  grpc: {port: 50051, service: liveness}        (a gRPC service's liveness: SERVING while it runs)
  grpc: {port: 50051}                           (its readiness: "" = the whole server, its database answers)
plus optional timings; the defaults below fill in what is not given. Liveness never depends on a
dependency: a PostgreSQL outage takes pods out of the Service, it never restarts them.
.Values.probes.startup holds timings only: the startup probe asks liveness's question, and liveness
starts once it has succeeded, so a slow start (a cold node, a busy CPU) is not killed.
*/}}
{{- define "lib.probe" -}}
{{- $defaults := dict "periodSeconds" 10 "timeoutSeconds" 3 "failureThreshold" 3 "successThreshold" 1 "initialDelaySeconds" 0 -}}
{{- toYaml (merge (deepCopy .) $defaults) -}}
{{- end -}}

{{- define "lib.probes" -}}
{{- with .Values.probes.startup }}
startupProbe:
  {{- include "lib.probe" (merge (deepCopy .) (pick $.Values.probes.liveness "httpGet" "grpc")) | nindent 2 }}
{{- end }}
{{- with .Values.probes.liveness }}
livenessProbe:
  {{- include "lib.probe" . | nindent 2 }}
{{- end }}
{{- with .Values.probes.readiness }}
readinessProbe:
  {{- include "lib.probe" . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Pod-level security: never root (the images run as uid 1000, the node image's `node` user). */}}
{{- define "lib.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container-level security: read-only root filesystem (a writable /tmp is mounted), no capabilities. */}}
{{- define "lib.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
{{- end -}}

{{/*
Scheduling and security fields shared by the Deployment's and the hook Jobs' pods. No API token is
ever mounted. The ServiceAccount is set by each: the Jobs run before the chart's own objects exist.
*/}}
{{- define "lib.podCommon" -}}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- include "lib.podSecurityContext" . | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/*
The hook Jobs' ServiceAccount: a pre-install hook runs before the chart's ServiceAccount exists, so
they use the namespace's `default` (no token mounted either) unless serviceAccount names an existing one.
*/}}
{{- define "lib.jobServiceAccount" -}}
{{- if and (not .Values.serviceAccount.create) .Values.serviceAccount.name -}}
serviceAccountName: {{ .Values.serviceAccount.name }}
{{- end -}}
{{- end -}}

{{/*
The server pods spread over zones and nodes (.Values.topologySpread.topologyKeys): ScheduleAnyway by
default, a preference that never leaves a pod pending. Counted per ReplicaSet (pod-template-hash), so
a rollout's new pods spread among themselves.
*/}}
{{- define "lib.topologySpread" -}}
{{- $spread := .Values.topologySpread -}}
{{- range $spread.topologyKeys }}
- topologyKey: {{ . }}
  maxSkew: {{ $spread.maxSkew }}
  whenUnsatisfiable: {{ $spread.whenUnsatisfiable }}
  labelSelector:
    matchLabels:
      {{- include "lib.serverSelectorLabels" $ | nindent 6 }}
  matchLabelKeys:
    - pod-template-hash
{{- end }}
{{- end -}}

{{/* Prometheus scrape annotations, only where the service serves metrics (metrics.enabled). */}}
{{- define "lib.metricsAnnotations" -}}
{{- if .Values.metrics.enabled }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .Values.metrics.port | int64 | quote }}
prometheus.io/path: {{ .Values.metrics.path | quote }}
{{- end }}
{{- end -}}
