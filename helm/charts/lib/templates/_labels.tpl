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

{{/* The service and its release: on every object and pod, never enough alone to select pods. */}}
{{- define "lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
The server pods (the Deployment's): the selector of the Deployment, the Service, the PDB, the HPA's
target and the NetworkPolicy. The component keeps the hook Jobs' pods (component: migrations, topics)
out of every one of them. Never change it: a Deployment's selector is immutable.
*/}}
{{- define "lib.serverSelectorLabels" -}}
{{ include "lib.selectorLabels" . }}
app.kubernetes.io/component: server
{{- end -}}

{{/* The pods of one hook Job: .context the chart's context, .component "migrations" or "topics". */}}
{{- define "lib.jobSelectorLabels" -}}
{{ include "lib.selectorLabels" .context }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}
