{{/* The service's Deployment. */}}
{{- define "lib.deployment" -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "lib.fullname" . }}
  labels:
    {{- include "lib.labels" . | nindent 4 }}
  {{- if include "lib.kafkaTopics" . }}
  annotations:
    {{- /* What the service publishes to, with the environment's prefix (declared, not provisioned). */}}
    corridor.dev/kafka-topics: {{ include "lib.kafkaTopics" . | quote }}
  {{- end }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "lib.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "lib.podLabels" . | nindent 8 }}
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
      {{- include "lib.podCommon" . | nindent 6 }}
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

{{/* Comma-separated full topic names: KAFKA_TOPIC_PREFIX + each declared topic. */}}
{{- define "lib.kafkaTopics" -}}
{{- $prefix := default "" .Values.env.KAFKA_TOPIC_PREFIX -}}
{{- $names := list -}}
{{- range ((default dict .Values.kafka).topics | default list) -}}
{{- $names = append $names (printf "%s%s" $prefix .name) -}}
{{- end -}}
{{- join "," $names -}}
{{- end -}}
