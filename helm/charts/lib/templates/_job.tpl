{{/*
Migration Job, a pre-install,pre-upgrade hook: the schema is migrated before any pod of the new
version starts, and a failed migration fails the install/upgrade (the old pods keep running).
Migrations must therefore stay compatible with the version still running (expand, then contract).
Hooks run before the chart's own objects exist, so the Job reads no ConfigMap: only the Secret
variables of .Values.migrations.secretEnv (DATABASE_URL) and LOG_LEVEL, set inline.
A failed Job is kept for `kubectl logs` until the next attempt replaces it.
*/}}
{{- define "lib.migrationJob" -}}
{{- if .Values.migrations.enabled -}}
{{- $secretEnv := dict -}}
{{- range .Values.migrations.secretEnv -}}
{{- if not (hasKey $.Values.secretEnv .) -}}
{{- fail (printf "migrations.secretEnv names %s, which secretEnv does not define" .) -}}
{{- end -}}
{{- $_ := set $secretEnv . (get $.Values.secretEnv .) -}}
{{- end -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "lib.fullname" . }}-migrate
  labels:
    {{- include "lib.labels" . | nindent 4 }}
    app.kubernetes.io/component: migrations
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "0"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ .Values.migrations.backoffLimit }}
  activeDeadlineSeconds: {{ .Values.migrations.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        {{- include "lib.podLabels" . | nindent 8 }}
        app.kubernetes.io/component: migrations
    spec:
      {{- include "lib.podCommon" . | nindent 6 }}
      restartPolicy: Never
      containers:
        - name: migrate
          image: {{ include "lib.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          command:
            {{- toYaml .Values.migrations.command | nindent 12 }}
          env:
            - name: LOG_LEVEL
              value: {{ default "info" .Values.env.LOG_LEVEL | quote }}
            {{- include "lib.secretEnv" $secretEnv | trim | nindent 12 }}
          resources:
            {{- toYaml .Values.migrations.resources | nindent 12 }}
          securityContext:
            {{- include "lib.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
{{- end -}}
{{- end -}}
