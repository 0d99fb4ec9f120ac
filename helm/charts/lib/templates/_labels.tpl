{{/* Labels on every object. */}}
{{- define "lib.labels" -}}
helm.sh/chart: {{ include "lib.chart" . }}
{{ include "lib.selectorLabels" . }}
app.kubernetes.io/version: {{ default .Chart.AppVersion .Values.image.tag | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: corridor
corridor.dev/environment: {{ .Values.env.CORRIDOR_ENVIRONMENT | quote }}
{{- end -}}

{{/* Labels of the pods: no chart version, so that a chart release alone does not restart them. */}}
{{- define "lib.podLabels" -}}
{{ include "lib.selectorLabels" . }}
app.kubernetes.io/version: {{ default .Chart.AppVersion .Values.image.tag | quote }}
app.kubernetes.io/part-of: corridor
corridor.dev/environment: {{ .Values.env.CORRIDOR_ENVIRONMENT | quote }}
{{- end -}}

{{/* Labels that select the service's pods; never change them (Deployment selectors are immutable). */}}
{{- define "lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
