{{/*
Prometheus Operator ServiceMonitor for the Service's `metrics` port, when
.Values.serviceMonitor.enabled (off by default). Enabled where the cluster has no ServiceMonitor
kind, rendering fails rather than skip it: monitoring that silently is not there is worse than an
error. `helm template` knows no cluster: give it --api-versions monitoring.coreos.com/v1/ServiceMonitor.
*/}}
{{- define "lib.serviceMonitor" -}}
{{- if .Values.serviceMonitor.enabled -}}
{{- if not (.Capabilities.APIVersions.Has "monitoring.coreos.com/v1/ServiceMonitor") -}}
{{- fail "serviceMonitor.enabled, but the cluster has no monitoring.coreos.com/v1 ServiceMonitor (install the Prometheus Operator's CRDs, or use the prometheus.io/* pod annotations of metrics.enabled)" -}}
{{- end -}}
{{- $served := false -}}
{{- range .Values.ports }}{{ if eq .name "metrics" }}{{ $served = true }}{{ end }}{{ end -}}
{{- if not $served -}}
{{- fail "serviceMonitor.enabled, but the service has no port named metrics" -}}
{{- end -}}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "lib.fullname" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
    {{- with .Values.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "lib.serverSelectorLabels" . | nindent 6 }}
  endpoints:
    - port: metrics
      path: {{ .Values.metrics.path }}
      interval: {{ .Values.serviceMonitor.interval }}
{{- end -}}
{{- end -}}
