{{/*
PodDisruptionBudget: voluntary evictions (node drains) take at most maxUnavailable server pods at a
time. It selects the server pods alone: a hook Job's pod (no scale subresource) in its selector would
make it allow no disruption at all while the Job runs.
*/}}
{{- define "lib.pdb" -}}
{{- if .Values.podDisruptionBudget.enabled -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "lib.fullname" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
    app.kubernetes.io/component: server
spec:
  maxUnavailable: {{ .Values.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "lib.serverSelectorLabels" . | nindent 6 }}
{{- end -}}
{{- end -}}
