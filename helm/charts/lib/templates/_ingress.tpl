{{/*
Ingress, when .Values.ingress.enabled: hosts and TLS to the Service's port .Values.ingress.port (the
gateway's schema allows `public` alone: the admin API is never routed from outside the cluster).
*/}}
{{- define "lib.ingress" -}}
{{- if .Values.ingress.enabled -}}
{{- $port := .Values.ingress.port -}}
{{- $served := false -}}
{{- range .Values.ports }}{{ if eq .name $port }}{{ $served = true }}{{ end }}{{ end -}}
{{- if not $served -}}
{{- fail (printf "ingress.port %s is not a port of the service" $port) -}}
{{- end -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "lib.fullname" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
  {{- with .Values.ingress.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .Values.ingress.className }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- with .Values.ingress.tls }}
  tls:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  rules:
    {{- range .Values.ingress.hosts }}
    - host: {{ .host | quote }}
      http:
        paths:
          {{- range .paths }}
          - path: {{ .path }}
            pathType: {{ .pathType }}
            backend:
              service:
                name: {{ include "lib.fullname" $ }}
                port:
                  name: {{ $port }}
          {{- end }}
    {{- end }}
{{- end -}}
{{- end -}}
