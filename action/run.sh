#!/usr/bin/env bash
# The run step of action.yml: crdtool COMMAND with the github reporter, from the INPUT_* variables.
# Inputs come as environment variables (never pasted into the script), so a path cannot inject shell code.
# Exit status: crdtool's (0 ok, 1 findings, 2 usage or input error), or 0 for findings with fail-on: never.
set -euo pipefail

command="${INPUT_COMMAND:-validate}"
case "$command" in
  validate|test|lint) ;;
  *) echo "::error title=crdtool action::command must be validate, test or lint, not '$command'"; exit 2 ;;
esac

args=("$command" --output github)
if [[ -n "${INPUT_KUBERNETES_VERSION:-}" ]]; then
  args+=(--kubernetes-version "$INPUT_KUBERNETES_VERSION")
fi
read -r -d '' -a crds <<< "${INPUT_CRD:-}" || true
if (( ${#crds[@]} )); then
  if [[ "$command" != validate ]]; then
    echo "::error title=crdtool action::the crd input is for validate (test suites name their CRDs)"; exit 2
  fi
  for crd in "${crds[@]}"; do args+=(--crd "$crd"); done
fi
fail_on="${INPUT_FAIL_ON:-}"
case "$fail_on" in
  ""|never) ;;
  error|warning|info)
    if [[ "$command" != lint ]]; then
      echo "::error title=crdtool action::fail-on $fail_on is for lint; validate and test take never"; exit 2
    fi
    args+=(--fail-on "$fail_on") ;;
  *) echo "::error title=crdtool action::fail-on must be error, warning, info or never, not '$fail_on'"; exit 2 ;;
esac
read -r -d '' -a extra <<< "${INPUT_ARGS:-}" || true
args+=("${extra[@]}")
read -r -d '' -a paths <<< "${INPUT_PATHS:-.}" || true
if (( ${#paths[@]} == 0 )); then paths=(.); fi
args+=("${paths[@]}")

echo "crdtool ${args[*]}"
status=0
crdtool "${args[@]}" || status=$?
if [[ "$fail_on" == never && "$status" == 1 ]]; then
  echo "crdtool: findings reported as annotations; fail-on: never keeps the step green"
  exit 0
fi
exit "$status"
