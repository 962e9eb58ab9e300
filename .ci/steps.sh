# Steps for .ci/run: `step` runs one command and records its seconds against its budget; `lanes` runs several
# sequences of steps side by side, each into its own log (printed when all have ended, in the order given, and
# tailed live with a lane prefix so a run cut short still shows where it was); `print_step_table` prints every
# step's seconds against its budget at the end. A step over its budget fails nothing by itself: the table says so,
# and the whole run's budget is what CI is held to.
CI_BUDGET_SECONDS=1800
CI_STARTED=$SECONDS
STEP_ROWS_FILE="$(mktemp "${TMPDIR:-/tmp}/cardsvc-ci-steps.XXXXXX")"
LANE_NAME=''

# step BUDGET NAME COMMAND...: the command may name this script's functions.
step() {
  local budget=$1 name=$2 started=$SECONDS status=0
  shift 2
  printf '\n==> %s%s (at %ss, budget %ss)\n' "${LANE_NAME:+[$LANE_NAME] }" "$name" "$((SECONDS - CI_STARTED))" "$budget"
  "$@" || status=$?
  printf '%s|%s|%s|%s\n' "${LANE_NAME:+  [$LANE_NAME] }$name" "$((SECONDS - started))" "$budget" "$status" >>"$STEP_ROWS_FILE"
  [ "$status" = 0 ] || printf '==> %s%s FAILED (exit %s)\n' "${LANE_NAME:+[$LANE_NAME] }" "$name" "$status"
  return "$status"
}

# lanes GROUP "NAME|FUNCTION" ...: each function (a sequence of `step`s) runs in a subshell of its own, side by side;
# a lane stops at its first failing step, the others go on.
lanes() {
  local group=$1 started=$SECONDS failed=0 i
  shift
  local specs=("$@") pids=() logs=() statuses=()
  printf '\n==> %s: %s lanes side by side (at %ss)\n' "$group" "${#specs[@]}" "$((SECONDS - CI_STARTED))"
  for i in "${!specs[@]}"; do
    IFS='|' read -r name function <<<"${specs[$i]}"
    logs[i]="$(mktemp "${TMPDIR:-/tmp}/cardsvc-ci-lane.XXXXXX")"
    ( set -euo pipefail; LANE_NAME=$name; "$function" ) >"${logs[$i]}" 2>&1 &
    pids[i]=$!
  done
  # One line a minute of where each lane is, so a log cut short still tells.
  ( while sleep 60; do
      for i in "${!specs[@]}"; do
        IFS='|' read -r name _ <<<"${specs[$i]}"
        printf '    [%s at %ss] %s\n' "$name" "$((SECONDS - CI_STARTED))" "$(grep -a '^==> ' "${logs[$i]}" | tail -n 1 | cut -c 5-120)"
      done
    done ) &
  local progress=$!
  for i in "${!specs[@]}"; do
    statuses[i]=0
    wait "${pids[$i]}" || statuses[i]=$?
  done
  kill "$progress" 2>/dev/null || true
  wait "$progress" 2>/dev/null || true
  for i in "${!specs[@]}"; do
    IFS='|' read -r name _ <<<"${specs[$i]}"
    printf '\n======== lane %s: its log (%s) ========\n' "$name" "$([ "${statuses[$i]}" = 0 ] && echo passed || echo FAILED)"
    cat "${logs[$i]}"
    rm -f "${logs[$i]}"
    [ "${statuses[$i]}" = 0 ] || failed=1
  done
  printf '%s|%s||%s\n' "$group (its lanes side by side)" "$((SECONDS - started))" "$failed" >>"$STEP_ROWS_FILE"
  return "$failed"
}

print_step_table() {
  local total=$((SECONDS - CI_STARTED)) name seconds budget status mark
  printf '\n==> the steps: seconds against budget (a lane step'"'"'s row follows its group'"'"'s steps; the group row is the wall time of its lanes)\n'
  printf '%-96s %7s %7s  %s\n' step seconds budget ''
  while IFS='|' read -r name seconds budget status; do
    mark=''
    [ "$status" = 0 ] || mark='FAILED'
    if [ -n "$budget" ] && [ "$seconds" -gt "$budget" ]; then mark="$mark over budget"; fi
    printf '%-96s %7s %7s  %s\n' "${name:0:96}" "$seconds" "$budget" "$mark"
  done <"$STEP_ROWS_FILE"
  printf '%-96s %7s %7s  %s\n' 'the whole run' "$total" "$CI_BUDGET_SECONDS" "$([ "$total" -gt "$CI_BUDGET_SECONDS" ] && echo 'over budget')"
  rm -f "$STEP_ROWS_FILE"
}
