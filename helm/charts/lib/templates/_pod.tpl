{{/*
Probes. .Values.probes.liveness and .readiness each hold one action, HTTP or native gRPC:
  httpGet: {path: /healthz, port: public}       (gateway liveness: the process answers)
  httpGet: {path: /readyz, port: public}        (gateway readiness: Redis, signing keys, each downstream)
  grpc: {port: 50051, service: liveness}        (a gRPC service's liveness: SERVING while it runs)
  grpc: {port: 50051}                           (its readiness: "" = the whole server, its database answers)
plus optional timings; the defaults below fill in what is not given. Liveness never depends on a
dependency: a PostgreSQL outage takes pods out of the Service, it never restarts them.
*/}}
{{- define "lib.probe" -}}
{{- $defaults := dict "periodSeconds" 10 "timeoutSeconds" 3 "failureThreshold" 3 "successThreshold" 1 "initialDelaySeconds" 0 -}}
{{- toYaml (merge (deepCopy .) $defaults) -}}
{{- end -}}

{{- define "lib.probes" -}}
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

{{/* Scheduling and identity fields shared by the Deployment's and the migration Job's pods. */}}
{{- define "lib.podCommon" -}}
automountServiceAccountToken: false
{{- with .Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
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

{{/* Prometheus scrape annotations, only where the service serves metrics (metrics.enabled). */}}
{{- define "lib.metricsAnnotations" -}}
{{- if .Values.metrics.enabled }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .Values.metrics.port | int64 | quote }}
prometheus.io/path: {{ .Values.metrics.path | quote }}
{{- end }}
{{- end -}}
