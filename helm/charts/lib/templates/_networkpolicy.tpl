{{/*
NetworkPolicies, when .Values.networkPolicy.enabled: each selects pods of the service and lists
every connection they may take or make; anything else is denied (both policy types, always).
  <service>             the server pods: .ingress and .egress below
  <service>-migrations  the migration Job's pods: no ingress; egress .migrations.egress (flow names)
  <service>-topics      the topics Job's pods: no ingress; egress .kafka.topicsJob.egress (flow names)
(A pre-install hook runs before these exist, so a first install's Jobs run unrestricted.)

The flows are data, in values:
  ingress: {<port name of .ports>: [peer...]}           who may connect to that port
  egress:  {<flow name>: {ports: [{port, protocol}], to: [peer...]}}   where the pods may connect
A peer is one of:
  service: <name>                  that Corridor service's server pods, in this namespace
  namespace: <name>                the pods of that namespace (podLabels: only those)
  cidr: <CIDR>, except: [<CIDR>]   addresses: servers outside the cluster have no pod labels
  anywhere: true                   any source or destination
A port or flow without peers allows nothing (never "everyone", as an empty `from` would).
*/}}
{{- define "lib.networkPolicies" -}}
{{- if .Values.networkPolicy.enabled -}}
{{- $portNames := list -}}
{{- range .Values.ports }}{{ $portNames = append $portNames .name }}{{ end -}}
{{- $ingress := list -}}
{{- range $port, $peers := .Values.networkPolicy.ingress -}}
{{- if not (has $port $portNames) -}}
{{- fail (printf "networkPolicy.ingress.%s: the service has no port named %s (ports: %s)" $port $port (join ", " $portNames)) -}}
{{- end -}}
{{- if $peers -}}
{{- $ingress = append $ingress (dict "ports" (list (dict "port" $port)) "peers" $peers) -}}
{{- end -}}
{{- end -}}
{{- $egress := list -}}
{{- range $name, $flow := .Values.networkPolicy.egress -}}
{{- if $flow.to -}}
{{- $egress = append $egress (dict "ports" $flow.ports "peers" $flow.to) -}}
{{- end -}}
{{- end -}}
{{- include "lib.networkPolicy" (dict "context" . "name" (include "lib.fullname" .) "selector" (include "lib.serverSelectorLabels" .) "ingress" $ingress "egress" $egress) }}
{{- if (default dict .Values.migrations).enabled }}
---
{{ include "lib.jobNetworkPolicy" (dict "context" . "component" "migrations" "flows" .Values.migrations.egress "from" "migrations.egress") }}
{{- end }}
{{- if include "lib.topicsJob" . }}
---
{{ include "lib.jobNetworkPolicy" (dict "context" . "component" "topics" "flows" .Values.kafka.topicsJob.egress "from" "kafka.topicsJob.egress") }}
{{- end }}
{{- end -}}
{{- end -}}

{{/* A hook Job's pods: no ingress, egress by the names of .Values.networkPolicy.egress flows. */}}
{{- define "lib.jobNetworkPolicy" -}}
{{- $ := .context -}}
{{- $egress := list -}}
{{- range .flows -}}
{{- $flow := get $.Values.networkPolicy.egress . -}}
{{- if not $flow -}}
{{- fail (printf "%s names %s, which networkPolicy.egress does not define" $.from .) -}}
{{- end -}}
{{- if $flow.to -}}
{{- $egress = append $egress (dict "ports" $flow.ports "peers" $flow.to) -}}
{{- end -}}
{{- end -}}
{{- include "lib.networkPolicy" (dict "context" $ "name" (printf "%s-%s" (include "lib.fullname" $) .component) "selector" (include "lib.jobSelectorLabels" (dict "context" $ "component" .component)) "ingress" (list) "egress" $egress) -}}
{{- end -}}

{{/* One NetworkPolicy: .name, .selector (labels, YAML), .ingress and .egress ({ports, peers} rules). */}}
{{- define "lib.networkPolicy" -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ .name }}
  labels:
    {{- include "lib.labels" .context | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- .selector | nindent 6 }}
  policyTypes:
    - Ingress
    - Egress
  {{- if .ingress }}
  ingress:
    {{- range .ingress }}
    - ports:
        {{- include "lib.networkPolicyPorts" .ports | trim | nindent 8 }}
      {{- if not (include "lib.anywhere" .peers) }}
      from:
        {{- include "lib.networkPolicyPeers" .peers | trim | nindent 8 }}
      {{- end }}
    {{- end }}
  {{- else }}
  ingress: []
  {{- end }}
  {{- if .egress }}
  egress:
    {{- range .egress }}
    - ports:
        {{- include "lib.networkPolicyPorts" .ports | trim | nindent 8 }}
      {{- if not (include "lib.anywhere" .peers) }}
      to:
        {{- include "lib.networkPolicyPeers" .peers | trim | nindent 8 }}
      {{- end }}
    {{- end }}
  {{- else }}
  egress: []
  {{- end }}
{{- end -}}

{{/* Non-empty when a peer of the list is `anywhere: true` (the rule then has no from/to). */}}
{{- define "lib.anywhere" -}}
{{- range . }}{{ if .anywhere }}true{{ end }}{{ end -}}
{{- end -}}

{{- define "lib.networkPolicyPorts" -}}
{{- range . }}
- port: {{ .port }}
  protocol: {{ default "TCP" .protocol }}
{{- end }}
{{- end -}}

{{- define "lib.networkPolicyPeers" -}}
{{- range . }}
{{- if .service }}
- podSelector:
    matchLabels:
      app.kubernetes.io/name: {{ .service }}
      app.kubernetes.io/component: server
{{- else if .namespace }}
- namespaceSelector:
    matchLabels:
      kubernetes.io/metadata.name: {{ .namespace }}
  {{- with .podLabels }}
  podSelector:
    matchLabels:
      {{- toYaml . | nindent 6 }}
  {{- end }}
{{- else if .cidr }}
- ipBlock:
    cidr: {{ .cidr }}
    {{- with .except }}
    except:
      {{- toYaml . | nindent 6 }}
    {{- end }}
{{- end }}
{{- end }}
{{- end -}}
