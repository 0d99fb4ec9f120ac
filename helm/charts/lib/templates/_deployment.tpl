{{/* The service's Deployment: the server pods (component: server). */}}
{{- define "lib.deployment" -}}
{{- if ge (int .Values.preStopSleepSeconds) (int .Values.terminationGracePeriodSeconds) -}}
{{- fail (printf "terminationGracePeriodSeconds (%v) must exceed preStopSleepSeconds (%v): the pod is killed before it has drained" .Values.terminationGracePeriodSeconds .Values.preStopSleepSeconds) -}}
{{- end -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "lib.fullname" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
    app.kubernetes.io/component: server
  {{- if include "lib.kafkaTopics" . }}
  annotations:
    {{- /* What the service publishes to, with the environment's prefix (made by the topics hook Job). */}}
    corridor.dev/kafka-topics: {{ include "lib.kafkaTopics" . | quote }}
  {{- end }}
spec:
  replicas: {{ include "lib.replicas" . }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "lib.serverSelectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "lib.podLabels" . | nindent 8 }}
        app.kubernetes.io/component: server
        {{- with .Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        {{- /* A changed ConfigMap rolls the pods: they read the environment once, at start. */}}
        checksum/env: {{ include "lib.configmap" . | sha256sum }}
        {{- with include "lib.metricsAnnotations" . | trim }}
        {{- . | nindent 8 }}
        {{- end }}
        {{- with .Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "lib.serviceAccountName" . }}
      {{- include "lib.podCommon" . | nindent 6 }}
      {{- with include "lib.topologySpread" . | trim }}
      topologySpreadConstraints:
        {{- . | nindent 8 }}
      {{- end }}
      terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
      containers:
        - name: {{ include "lib.name" . }}
          image: {{ include "lib.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          ports:
            {{- range .Values.ports }}
            - name: {{ .name }}
              containerPort: {{ .port }}
              protocol: TCP
            {{- end }}
          {{- include "lib.containerEnv" . | nindent 10 }}
          {{- include "lib.probes" . | trim | nindent 10 }}
          {{- if .Values.preStopSleepSeconds }}
          lifecycle:
            {{- /*
            Endpoints and proxies learn of a terminating pod with a delay: it keeps serving that long
            before SIGTERM. The sleep action (GA in 1.34) needs no shell in the image.
            */}}
            preStop:
              sleep:
                seconds: {{ .Values.preStopSleepSeconds }}
          {{- end }}
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
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

{{/*
spec.replicas. Without autoscaling, replicaCount. With it, the live Deployment's count (lookup) or
minReplicas, whichever is higher: an upgrade, or autoscaling turned on in a running release, never
scales the service down (leaving replicas out would reset it to 1 until the HPA scaled back up).
`helm template` and --dry-run see no live object: they show minReplicas.
*/}}
{{- define "lib.replicas" -}}
{{- if .Values.autoscaling.enabled -}}
{{- $live := lookup "apps/v1" "Deployment" .Release.Namespace (include "lib.fullname" .) | default dict -}}
{{- max (int (dig "spec" "replicas" 0 $live)) (int .Values.autoscaling.minReplicas) -}}
{{- else -}}
{{- .Values.replicaCount -}}
{{- end -}}
{{- end -}}

{{/* Comma-separated full topic names: KAFKA_TOPIC_PREFIX + each declared topic. */}}
{{- define "lib.kafkaTopics" -}}
{{- $prefix := default "" .Values.env.KAFKA_TOPIC_PREFIX -}}
{{- $names := list -}}
{{- range ((default dict .Values.kafka).topics | default list) -}}
{{- $names = append $names (printf "%s%s" $prefix .name) -}}
{{- end -}}
{{- join "," $names -}}
{{- end -}}
