{{/* PodDisruptionBudget: voluntary evictions (node drains) take at most maxUnavailable pods at a time. */}}
{{- define "lib.pdb" -}}
{{- if .Values.podDisruptionBudget.enabled -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "lib.fullname" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
spec:
  maxUnavailable: {{ .Values.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "lib.selectorLabels" . | nindent 6 }}
{{- end -}}
{{- end -}}
