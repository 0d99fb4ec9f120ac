{{/*
Hook Jobs, pre-install,pre-upgrade: they run before any pod of the new version starts, in weight
order, and a failed one fails the install/upgrade (the old pods keep running):
  -5  <service>-topics   the Kafka topics the service publishes to (.Values.kafka.topics)
   0  <service>-migrate  its database migrations (.Values.migrations)
Hooks run before the chart's own objects exist, so they read no ConfigMap (their variables are set
inline) and run under the namespace's default ServiceAccount (lib.jobServiceAccount). Their pods are
labelled component: topics / migrations, never server, so no server selector (Deployment, Service,
PDB, NetworkPolicy) ever counts them. A failed Job is kept for `kubectl logs` until the next attempt
replaces it.
*/}}

{{/*
Migration Job: `node dist/migrate.js up`. Migrations must stay compatible with the version still
running (expand, then contract). Its variables: .Values.migrations.secretEnv (DATABASE_URL) and LOG_LEVEL.
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
{{- $env := printf "- name: LOG_LEVEL\n  value: %s\n%s" (default "info" .Values.env.LOG_LEVEL | quote) (include "lib.secretEnv" $secretEnv | trim) -}}
{{- include "lib.hookJob" (dict "context" . "component" "migrations" "suffix" "migrate" "weight" "0" "job" .Values.migrations "args" (list) "env" $env) -}}
{{- end -}}
{{- end -}}

{{/*
Topics Job: `node dist/topics.js <topic>:<partitions>...` with the service's KAFKA_BROKERS and
KAFKA_TOPIC_PREFIX. Creates a missing topic, raises a lower partition count, never lowers one
(Kafka cannot: a higher live count is kept and logged). Only for a service that publishes.
*/}}
{{- define "lib.topicsJob" -}}
{{- $kafka := default dict .Values.kafka -}}
{{- if and $kafka.topics (dig "topicsJob" "enabled" false $kafka) -}}
{{- $args := list -}}
{{- range $kafka.topics -}}
{{- $args = append $args (printf "%s:%d" .name (int .partitions)) -}}
{{- end -}}
{{- if not .Values.env.KAFKA_BROKERS -}}
{{- fail "kafka.topicsJob needs env.KAFKA_BROKERS" -}}
{{- end -}}
{{- $env := dict "LOG_LEVEL" (default "info" .Values.env.LOG_LEVEL) "KAFKA_BROKERS" .Values.env.KAFKA_BROKERS "KAFKA_TOPIC_PREFIX" (default "" .Values.env.KAFKA_TOPIC_PREFIX) -}}
{{- $lines := list -}}
{{- range $name, $value := $env -}}
{{- $lines = append $lines (printf "- name: %s\n  value: %s" $name (toString $value | quote)) -}}
{{- end -}}
{{- include "lib.hookJob" (dict "context" . "component" "topics" "suffix" "topics" "weight" "-5" "job" $kafka.topicsJob "args" $args "env" (join "\n" $lines)) -}}
{{- end -}}
{{- end -}}

{{/*
A hook Job. .context the chart's context; .component its pods' component label; .suffix the name's;
.weight the hook weight; .job its values (command, backoffLimit, activeDeadlineSeconds, resources);
.args appended to the command; .env the container's env entries (YAML).
*/}}
{{- define "lib.hookJob" -}}
{{- $ := .context -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "lib.fullname" $ }}-{{ .suffix }}
  labels:
    {{- include "lib.labels" $ | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: {{ .weight | quote }}
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ .job.backoffLimit }}
  activeDeadlineSeconds: {{ .job.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        {{- include "lib.podLabels" $ | nindent 8 }}
        app.kubernetes.io/component: {{ .component }}
    spec:
      {{- with include "lib.jobServiceAccount" $ }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- include "lib.podCommon" $ | nindent 6 }}
      restartPolicy: Never
      containers:
        - name: {{ .suffix }}
          image: {{ include "lib.image" $ }}
          imagePullPolicy: {{ $.Values.image.pullPolicy }}
          command:
            {{- toYaml (concat .job.command .args) | nindent 12 }}
          env:
            {{- .env | nindent 12 }}
          resources:
            {{- toYaml .job.resources | nindent 12 }}
          securityContext:
            {{- include "lib.containerSecurityContext" $ | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
{{- end -}}
