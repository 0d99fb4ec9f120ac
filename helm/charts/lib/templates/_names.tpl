{{/*
Names. A service's objects are named after the service (chart name), not the release: one
environment per namespace, and other services find it at a stable DNS name (gateway → identity:50051).
*/}}
{{- define "lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "lib.fullname" -}}
{{- default (include "lib.name" .) .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "lib.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The image reference: repository@digest when image.digest is set (the tag is then ignored: a digest
names exactly one image), else repository:tag, the tag defaulting to the chart's appVersion.
*/}}
{{- define "lib.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The server pods' ServiceAccount: the chart's own (named after the service) or an existing one. */}}
{{- define "lib.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "lib.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}
