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

{{/* The image reference: repository:tag, the tag defaulting to the chart's appVersion. */}}
{{- define "lib.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
