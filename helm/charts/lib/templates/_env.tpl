{{/*
Environment wiring. A service reads its whole configuration from environment variables
(services/<name>/src/config.ts), set from three values:
  env        plain variables, rendered into the ConfigMap <fullname>-env (envFrom)
  secretEnv  VARIABLE: {name: <Secret>, key: <key>}, read from a Secret that exists in the namespace
             (made by the operator or an external-secrets controller, never by this chart)
  ports      a port entry with `env` sets that variable to its number, with `addressEnv` to 0.0.0.0:<number>
A variable may come from one of them only.
*/}}

{{/* The plain variables as a YAML map of strings (null values are left out). */}}
{{- define "lib.envData" -}}
{{- $data := dict -}}
{{- range $name, $value := .Values.env -}}
{{- if not (kindIs "invalid" $value) -}}
{{- if kindIs "float64" $value -}}
{{- $value = $value | int64 -}}
{{- end -}}
{{- $_ := set $data $name (toString $value) -}}
{{- end -}}
{{- end -}}
{{- range .Values.ports -}}
{{- range $variable := list .env .addressEnv -}}
{{- if and $variable (hasKey $data $variable) -}}
{{- fail (printf "%s is set both in env and by ports" $variable) -}}
{{- end -}}
{{- end -}}
{{- if .env -}}
{{- $_ := set $data .env (toString (.port | int64)) -}}
{{- end -}}
{{- if .addressEnv -}}
{{- $_ := set $data .addressEnv (printf "0.0.0.0:%d" (.port | int64)) -}}
{{- end -}}
{{- end -}}
{{- range $name, $_ := .Values.secretEnv -}}
{{- if hasKey $data $name -}}
{{- fail (printf "%s is set both as a plain variable and from a Secret (secretEnv)" $name) -}}
{{- end -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* ConfigMap holding the plain variables. */}}
{{- define "lib.configmap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "lib.fullname" . }}-env
  labels:
    {{- include "lib.labels" . | nindent 4 }}
data:
  {{- include "lib.envData" . | nindent 2 }}
{{- end -}}

{{/* secretKeyRef entries for a container's env; the argument is the secretEnv map. */}}
{{- define "lib.secretEnv" -}}
{{- range $name, $ref := . }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}

{{/* A service container's envFrom and env. */}}
{{- define "lib.containerEnv" -}}
envFrom:
  - configMapRef:
      name: {{ include "lib.fullname" . }}-env
{{- with .Values.secretEnv }}
env:
  {{- include "lib.secretEnv" . | trim | nindent 2 }}
{{- end }}
{{- end -}}
