{{/*
The service's own ServiceAccount, when .Values.serviceAccount.create: an identity for its pods that
grants nothing (no Role binds it) and whose token is never mounted; the services never call the
Kubernetes API. Annotations are for a cloud's workload identity (e.g. object storage without keys).
*/}}
{{- define "lib.serviceAccount" -}}
{{- if .Values.serviceAccount.create -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "lib.serviceAccountName" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end -}}
{{- end -}}
