{{/*
The StatefulSet's replicas under KEDA: the live count (KEDA's choice, or replicaCount's on the
upgrade that turns KEDA on), else keda.minReplicas. Rendering none would not leave the count alone:
Helm's three-way merge removes a field the previous revision set, and the API server then defaults
it to 1 until KEDA scales back up (a rebalance and restores for nothing). `lookup` reads the live
object on upgrades only: an install has none, and `helm template` and client-side dry runs have no
cluster to ask (there `lookup` finds nothing, or fails where the renderer is not client-only), so
they render keda.minReplicas (see README.md, "Autoscaling on lag", for GitOps tools that render so).
*/}}
{{- define "weir.kedaReplicas" -}}
{{- $live := dict -}}
{{- if .Release.IsUpgrade -}}
{{- $live = lookup "apps/v1" "StatefulSet" .Release.Namespace (include "weir.fullname" .) | default dict -}}
{{- end -}}
{{- dig "spec" "replicas" .Values.keda.minReplicas $live | int64 -}}
{{- end -}}
