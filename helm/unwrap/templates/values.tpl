{{- if not .Values.service }}{{ fail "--set service=<chart name>" }}{{ end -}}
{{ index .Values .Values.service | default dict | toYaml }}
