{{- define "switchboard.name" -}}{{ .Release.Name }}{{- end -}}
{{- define "switchboard.namespace" -}}{{ default .Release.Namespace .Values.watchNamespace }}{{- end -}}
{{- define "switchboard.labels" -}}
app.kubernetes.io/name: switchboard
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}
