# shellcheck shell=bash
# The checkout group of the SE-roll scenarios (issue 41, se_group_rollout*_test.sh), sourced after
# lib.sh: its configuration, its SEs and virtual services on the emulator, and what the scenarios
# read back. Not a scenario itself (CMake takes only *_test.sh).
#
# The group: max_vs_per_se = 2 and workload.virtual_services = 6, so the sizing plans 3 active SEs
# and max_se 4 (3 + buffer_se 1), and the 6 virtual services the emulator places fill 3 SEs, 2
# each. Disabling one SE then leaves its 2 virtual services no room on the others: the emulated
# Controller creates a 4th SE, at the group's current settings, and moves them there (make before
# break; max_se 4 allows it). That is the replacement the roll waits for before it deletes the
# old SE, and the room a rebooted SE's virtual services move to meanwhile.

CHECKOUT_UUID=""

# write_checkout CLOUD WORKLOAD [SETTINGS] [ROLLOUT]: main.tf with the checkout group in CLOUD,
# the workload block's lines WORKLOAD (virtual_services = 6 is always there), further settings
# lines SETTINGS and the rollout block's lines ROLLOUT (no rollout block when empty).
write_checkout() {
  local rollout=""
  [ -z "${4:-}" ] || rollout=$'\n  rollout {\n    '"$4"$'\n  }'
  tf_write main.tf <<EOF
resource "nsxalb_se_group" "checkout" {
  name          = "checkout"
  cloud         = "$1"
  platform      = "nsxt"
  max_vs_per_se = 2
  ${3:-}

  workload {
    virtual_services = 6
    $2
  }$rollout
}
EOF
}

# start_checkout CLOUD WORKLOAD [SETTINGS] [VSS]: from an empty state, creates the group (strategy
# "none") and has the Controller run 3 SEs at its settings with VSS virtual services (default 6:
# 2 a SE, packed); state's service_engines then says 3 running, 3 matching. Sets CHECKOUT_UUID.
start_checkout() {
  local vss=${4:-6}
  write_checkout "$1" "$2" "${3:-}"
  [ -d "$TF_WORK/.terraform" ] || tf init
  rm -f "$TF_WORK"/terraform.tfstate "$TF_WORK"/terraform.tfstate.backup
  tf apply -auto-approve
  CHECKOUT_UUID=$(state_attr .id | tr -d '"')
  [ "$(state_attr .max_se)" -ge 4 ] || fail "max_se is $(state_attr .max_se): no room for a replacement"
  emu_control POST serviceengines "{\"se_group_uuid\":\"$CHECKOUT_UUID\",\"count\":3}" >/dev/null
  emu_control POST virtualservices "{\"se_group\":\"checkout\",\"count\":$vss}" >/dev/null
  emu_control GET virtualservices | jq -e --arg g "$CHECKOUT_UUID" --argjson n "$vss" \
    '[.results[] | select(.se_group_uuid == $g)] | length == $n and all(.se_uuids | length == 1)' \
    >/dev/null || fail "the $vss virtual services are not each on one SE: $(emu_control GET virtualservices)"
  tf apply -refresh-only -auto-approve
  assert_json '.service_engines | [.running, .matching]' '[3,3]' <(state_attr .)
}

# state_attr JQ: JQ of checkout's attributes in terraform.tfstate, compact.
state_attr() {
  jq -c ".resources[] | select(.name == \"checkout\") | .instances[0].attributes | $1" \
    "$TF_WORK/terraform.tfstate"
}

# checkout_ses: the group's SEs on the emulator (its stored objects, which a reading does not
# count), one "NAME VCPUS MEMORY_MB ENABLE_STATE" line each, by name.
checkout_ses() {
  emu_get /_emulator/state | jq -r --arg g "$CHECKOUT_UUID" '.serviceengine[]?
    | select(.se_group_ref == $g)
    | "\(.name) \(.resources.num_vcpus) \(.resources.memory) \(.enable_state // "SE_STATE_ENABLED")"' |
    sort
}

# assert_no_se_disabled: no SE of the group has enable_state SE_STATE_DISABLED (or any other
# state than SE_STATE_ENABLED).
assert_no_se_disabled() {
  local ses
  ses=$(checkout_ses)
  if awk '$4 != "SE_STATE_ENABLED" { bad = 1 } END { exit !bad }' <<<"$ses"; then
    fail "an SE is left disabled: $ses"
  fi
}

# checkout_runtime: the group's SEs with their runtime through the API (counted: read it after
# the counters), one JSON object a line: name, enable_state, vcpus, memory, oper, pending.
checkout_runtime() {
  emu_api GET "/api/serviceengine?refers_to=serviceenginegroup:$CHECKOUT_UUID&join_subresources=runtime&page_size=200" |
    jq -c '.results[] | {name, enable_state, vcpus: .resources.num_vcpus,
      memory: .resources.memory, oper: .runtime.oper_status.state,
      pending: .runtime.se_grp_reboot_pending}'
}

# assert_timeline_clean: since the last timeline reset no virtual service was ever without an SE
# (unplaced_instants empty) and at most 1 SE was out of service at once.
assert_timeline_clean() {
  local summary
  summary=$(emu_control GET timeline | jq -c .summary)
  jq -e '(.unplaced_instants | length) == 0' <<<"$summary" >/dev/null ||
    fail "a virtual service was left without an SE: $summary"
  jq -e '.max_ses_out <= 1' <<<"$summary" >/dev/null || fail "more than 1 SE out at once: $summary"
  echo "timeline: unplaced_instants 0, max_ses_out $(jq .max_ses_out <<<"$summary")"
}

# se_requests: the requests on /api/serviceengine and /api/serviceengine-inventory and below
# since the counters' reset, one "METHOD PATH COUNT" line each (the SE group's own requests are
# not among them).
se_requests() {
  emu_counters | jq -r '.requests | to_entries[]
    | select(.key | test("^[A-Z]+ /api/serviceengine(-inventory)?(/|$)")) | "\(.key) \(.value)"' | sort
}

# se_writes: how many of those could change an SE (POST, PUT, PATCH, DELETE).
se_writes() {
  emu_counters | jq '[.requests | to_entries[]
    | select(.key | test("^(POST|PUT|PATCH|DELETE) /api/serviceengine(/|$)")) | .value] | add // 0'
}

# --- Any group: the roll decided in the plan (issue 44) -----------------------------------------
# The helpers below take the group's uuid (or name) and serve the scenarios of issue 44 as well
# (se_group_rollout_{plan,hot,placement,blocked,prediction}_test.sh). Every roll scenario runs the
# emulator with --delete-hosting-se (EMU_ARGS): a DELETE of an SE that still hosts a virtual
# service then succeeds and drops it, so a roll that deletes too early shows unplaced instants
# instead of a 409 (docs/emulator.md, "DELETE").

# group_uuid NAME: the uuid of the nsxalb_se_group resource NAME in terraform.tfstate.
group_uuid() {
  jq -r --arg n "$1" '.resources[] | select(.type == "nsxalb_se_group" and .name == $n)
    | .instances[0].attributes.id' "$TF_WORK/terraform.tfstate"
}

# group_attr NAME JQ: JQ of the resource NAME's attributes in terraform.tfstate, compact.
group_attr() {
  jq -c --arg n "$1" ".resources[] | select(.type == \"nsxalb_se_group\" and .name == \$n)
    | .instances[0].attributes | $2" "$TF_WORK/terraform.tfstate"
}

# group_ses UUID: the group's SEs on the emulator (its stored objects, not counted), one
# "NAME VCPUS MEMORY_MB ENABLE_STATE" line each, by name.
group_ses() {
  emu_get /_emulator/state | jq -r --arg g "$1" '.serviceengine[]?
    | select(.se_group_ref == $g)
    | "\(.name) \(.resources.num_vcpus) \(.resources.memory) \(.enable_state // "SE_STATE_ENABLED")"' |
    sort -V
}

# run_ses UUID GROUP_NAME COUNT VSS: the Controller runs COUNT SEs of the group at its settings
# and places VSS virtual services on them, as the group's placement settings say.
run_ses() {
  emu_control POST serviceengines "{\"se_group_uuid\":\"$1\",\"count\":$3}" >/dev/null
  emu_control POST virtualservices "{\"se_group\":\"$2\",\"count\":$4}" >/dev/null
}

# vs_layout UUID: where the group's virtual services sit, one "SE: VS VS..." line an SE, by SE
# name (for the log and for the figures the headers work by hand).
vs_layout() {
  local names
  names=$(emu_get /_emulator/state | jq -c '[.serviceengine[]? | {key: .uuid, value: .name}] | from_entries')
  emu_control GET virtualservices | jq -r --arg g "$1" --argjson n "$names" '
    [.results[] | select(.se_group_uuid == $g) | .name as $vs | .se_uuids[] | {se: ($n[.] // .), vs: $vs}]
    | group_by(.se)[] | "\(.[0].se): \([.[].vs] | join(" "))"' | sort -V
}

# load_se_metric METRIC UUID PCT...: loads each SE's METRIC (a percentage, e.g.
# se_stats.avg_cpu_usage; or bits per second for se_if.avg_bandwidth) for the last hour, 12
# five-minute samples, the group's SEs in name order taking the PCTs in turn: the samples rise to
# PCT at the 6th and stay under it otherwise, so "the highest 5-minute sample of the last hour"
# the roll's decision reads is PCT.
load_se_metric() {
  local metric=$1 uuid=$2 series
  shift 2
  series=$(emu_get /_emulator/state | jq -c --arg g "$uuid" --arg m "$metric" --args '
    [.serviceengine[]? | select(.se_group_ref == $g)] | sort_by([(.name | length), .name])
    | to_entries | map(select(.key < ($ARGS.positional | length)) | ($ARGS.positional[.key] | tonumber) as $p
      | {entity_uuid: .value.uuid, metric_id: $m, step: 300,
         values: [range(12) | if . == 5 then $p else ($p * (0.80 + 0.01 * .)) end]})
    | {series: .}' "$@")
  [ "$(jq '.series | length' <<<"$series")" = $# ] || fail "load $metric: the group has fewer than $# SEs"
  emu_control POST metrics "$series" >/dev/null
}

# load_cpu UUID PCT...: load_se_metric of each SE's CPU (se_stats.avg_cpu_usage).
load_cpu() { load_se_metric se_stats.avg_cpu_usage "$@"; }

# load_mem UUID PCT...: load_se_metric of each SE's memory (se_stats.avg_mem_usage, percent of
# the SE's memory).
load_mem() { load_se_metric se_stats.avg_mem_usage "$@"; }

# assert_no_se_write WHAT: no request since the counters' reset could have changed an SE.
assert_no_se_write() {
  [ "$(se_writes)" = 0 ] || fail "$1 wrote to an SE: $(se_requests)"
}

# assert_timeline_clean_of UUID: since the last timeline reset no virtual service of the group
# was ever without an SE and at most 1 of its SEs was out at once.
assert_timeline_clean_of() {
  local summary
  summary=$(emu_control GET timeline | jq -c .summary)
  jq -e '(.unplaced_instants | length) == 0' <<<"$summary" >/dev/null ||
    fail "a virtual service was left without an SE: $summary"
  jq -e --arg g "$1" '(.max_ses_out_by_group[$g] // 0) <= 1' <<<"$summary" >/dev/null ||
    fail "more than 1 SE of $1 out at once: $summary"
}

# plan_json [ARGS...]: `terraform plan -json -out=tfplan ARGS`, which must not fail; its
# diagnostics, unwrapped, are then in $TF_STDOUT (one JSON message a line).
plan_json() { tf plan -json -out=tfplan "$@"; }

# diagnostic SUMMARY [FILE]: the diagnostic of `terraform plan -json` output FILE (default
# $TF_STDOUT) whose summary is SUMMARY, as one compact JSON object; fails when there is none.
diagnostic() {
  local found
  found=$(jq -c --arg s "$1" 'select(.type == "diagnostic" and .diagnostic.summary == $s) | .diagnostic' \
    "${2:-$TF_STDOUT}" | head -n 1)
  [ -n "$found" ] || {
    jq -r 'select(.type == "diagnostic") | .diagnostic.summary' "${2:-$TF_STDOUT}" >&2
    fail "no diagnostic \"$1\" in $(basename "${2:-$TF_STDOUT}") (the summaries above)"
  }
  echo "$found"
}

# predicted_moves DETAIL: the moves of a decision's detail text (its "step N: SE out; VS, VS ->
# DEST; ..." lines), one "N VS DEST" line each, sorted.
predicted_moves() {
  printf '%s\n' "$1" | awk '
    /^step [0-9]+: / {
      n = $2; sub(/:$/, "", n)
      count = split($0, parts, "; ")
      for (i = 2; i <= count; i++) {
        if (index(parts[i], " -> ") == 0) continue
        dest = substr(parts[i], index(parts[i], " -> ") + 4)
        split(substr(parts[i], 1, index(parts[i], " -> ") - 1), vss, ", ")
        for (v in vss) print n " " vss[v] " " dest
      }
    }' | sort -V
}

# remember_se_names: OLD_SE_NAMES, the names of every SE the emulator holds now by uuid (JSON),
# for observed_moves after a roll deleted them.
remember_se_names() {
  OLD_SE_NAMES=$(emu_get /_emulator/state | jq -c '[.serviceengine[]? | {key: .uuid, value: .name}] | from_entries')
}

# observed_moves UUID: where the emulator placed the group's virtual services during the roll
# (since the last timeline reset), one "N VS DEST" line each, sorted: step N begins at the N-th
# MIGRATE_SE_STARTED of the group; a placement (vs_placed, or vs_pending on a booting SE) on
# another SE than the leaving one in that step is a move; DEST is the SE's name, or "new SE K"
# for the K-th SE the emulator created since the reset.
observed_moves() {
  local names vss
  names=$(emu_get /_emulator/state | jq -c '[.serviceengine[]? | {key: .uuid, value: .name}] | from_entries')
  vss=$(emu_control GET virtualservices | jq -c '[.results[] | {key: .uuid, value: .name}] | from_entries')
  emu_control GET timeline | jq -r --arg g "$1" --argjson names "$names" --argjson vss "$vss" \
    --argjson known "${OLD_SE_NAMES:-{\}}" '
    reduce (.events[] | select(.se_group == $g)) as $e ({step: 0, leaving: "", new: {}, out: []};
      if $e.kind == "MIGRATE_SE_STARTED" then .step += 1 | .leaving = $e.se
      elif $e.kind == "se_created" then .new[$e.se] = "new SE \(.new | length + 1)"
      elif ($e.kind == "vs_placed" or $e.kind == "vs_pending") and .step > 0 and $e.se != .leaving
      then .out += ["\(.step) \($vss[$e.vs] // $e.vs) \(.new[$e.se] // $known[$e.se] // $names[$e.se] // $e.se)"]
      else . end) | .out[]' | sort -uV
}
