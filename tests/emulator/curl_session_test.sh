#!/usr/bin/env bash
# Acceptance: a curl session against nsxalb-controller-emulator behaves as the reference describes
# for a real Controller (log in, create an SE group, read it by name, delete it): status codes,
# headers, cookies and body shapes. Usage: curl_session_test.sh PATH/TO/nsxalb-controller-emulator
set -euo pipefail
emulator=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/nsxalb-curl-test-XXXXXX")
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { [ "$2" = "$3" ] || fail "$1: expected '$3', got '$2'"; }
# The first value of "KEY" in a compact JSON file (the emulator writes compact JSON): a string
# without its quotes, or a number / true / false.
field() { grep -o '"'"$2"'":\("[^"]*"\|[-0-9.a-z]*\)' "$1" | head -n1 | cut -d: -f2- | sed 's/^"//; s/"$//'; }

"$emulator" --port 0 --tls-dir "$work/tls" >"$work/ready" 2>"$work/stderr" &
pid=$!
for _ in $(seq 1 100); do [ -s "$work/ready" ] && break; sleep 0.1; done
[ -s "$work/ready" ] || { cat "$work/stderr" >&2; fail "no ready line"; }
expect "ready event" "$(field "$work/ready" event)" ready
url=$(field "$work/ready" url)
ca=$(field "$work/ready" ca_file)
expect "ca_file" "$ca" "$work/tls/cert.pem"
curl_() { curl -sS --max-time 10 --cacert "$ca" -b "$work/jar" -c "$work/jar" "$@"; }

# 1. Log in (JSON body); cookies csrftoken, avi-sessionid and sessionid.
code=$(curl_ -o "$work/login" -D "$work/login.h" -w '%{http_code}' -X POST \
  -H 'Content-Type: application/json' -d '{"username":"admin","password":"admin"}' "$url/login")
expect "login status" "$code" 200
grep -qi '^set-cookie: csrftoken=[0-9a-f]*; Max-Age=31449600;.*Secure' "$work/login.h" || fail "csrftoken cookie"
grep -qi '^set-cookie: avi-sessionid=[0-9a-f]*; HttpOnly; Max-Age=86400' "$work/login.h" || fail "avi-sessionid cookie"
grep -qi '^set-cookie: sessionid=' "$work/login.h" || fail "sessionid cookie"
expect "login version" "$(field "$work/login" Version)" 22.1.3
expect "session cookie name" "$(field "$work/login" session_cookie_name)" avi-sessionid
csrf=$(awk '$6=="csrftoken"{print $7}' "$work/jar")
sid=$(awk '$6=="avi-sessionid"{print $7}' "$work/jar")
[ -n "$csrf" ] && [ -n "$sid" ] || fail "cookie jar lacks csrftoken or avi-sessionid"
hdrs=(-H 'Content-Type: application/json' -H 'X-Avi-Version: 22.1.3' -H 'X-Avi-Tenant: admin')

# 2. Create without the CSRF header: 401 with the Controller's plain-text body.
code=$(curl_ -o "$work/nocsrf" -w '%{http_code}' -X POST "${hdrs[@]}" -H "Referer: $url/" \
  -d '{"name":"curl-seg"}' "$url/api/serviceenginegroup")
expect "create without X-CSRFToken" "$code" 401
expect "CSRF body" "$(cat "$work/nocsrf")" "CSRF token missing or incorrect."

# 3. Create with X-CSRFToken + Referer: 201, Location https://HOST/api/serviceenginegroup/<uuid>#<name>.
code=$(curl_ -o "$work/created" -D "$work/created.h" -w '%{http_code}' -X POST "${hdrs[@]}" \
  -H "X-CSRFToken: $csrf" -H "Referer: $url/" \
  -d '{"name":"curl-seg","vcpus_per_se":2,"memory_per_se":4096,"max_se":4}' "$url/api/serviceenginegroup")
expect "create status" "$code" 201
uuid=$(field "$work/created" uuid)
[[ "$uuid" =~ ^serviceenginegroup-[0-9a-f-]{36}$ ]] || fail "uuid shape: $uuid"
location=$(grep -i '^location:' "$work/created.h" | tr -d '\r' | cut -d' ' -f2-)
expect "Location" "$location" "$url/api/serviceenginegroup/$uuid#curl-seg"
expect "url" "$(field "$work/created" url)" "$url/api/serviceenginegroup/$uuid#curl-seg"
expect "tenant_ref" "$(field "$work/created" tenant_ref)" "$url/api/tenant/admin#admin"
[[ "$(field "$work/created" cloud_ref)" =~ ^$url/api/cloud/cloud-[0-9a-f-]{36}#Default-Cloud$ ]] || fail "cloud_ref"
grep -Eq '"_last_modified":"[0-9]{16}"' "$work/created" || fail "_last_modified is not a string of microseconds"

# 4. Read it by name: {"count":1,"results":[...]}, refs without #name.
code=$(curl_ -o "$work/byname" -w '%{http_code}' "${hdrs[@]}" "$url/api/serviceenginegroup?name=curl-seg")
expect "read by name" "$code" 200
expect "count" "$(field "$work/byname" count)" 1
expect "uuid by name" "$(field "$work/byname" uuid)" "$uuid"
expect "vcpus_per_se" "$(field "$work/byname" vcpus_per_se)" 2
expect "plain url" "$(field "$work/byname" url)" "$url/api/serviceenginegroup/$uuid"

# 5. Delete: 204 with an empty body, then 404 with {"error": ...}.
code=$(curl_ -o "$work/deleted" -w '%{http_code}' -X DELETE "${hdrs[@]}" -H "X-CSRFToken: $csrf" \
  -H "Referer: $url/" "$url/api/serviceenginegroup/$uuid")
expect "delete status" "$code" 204
expect "delete body" "$(wc -c <"$work/deleted" | tr -d ' ')" 0
code=$(curl_ -o "$work/gone" -w '%{http_code}' "${hdrs[@]}" "$url/api/serviceenginegroup/$uuid")
expect "read after delete" "$code" 404
grep -q '^{"error":"' "$work/gone" || fail "404 body has no error"

# 6. Without a session: 401.
code=$(curl -sS --max-time 10 --cacert "$ca" -o /dev/null -w '%{http_code}' -H 'X-Avi-Version: 22.1.3' \
  "$url/api/serviceenginegroup")
expect "no session" "$code" 401

# 7. The counters saw the session.
curl -sS --max-time 10 --cacert "$ca" "$url/_emulator/counters" >"$work/counters"
expect "POST /login counted" "$(field "$work/counters" "POST /login")" 1
expect "DELETE counted" "$(field "$work/counters" "DELETE /api/serviceenginegroup/{uuid}")" 1

kill "$pid"; wait "$pid" || fail "emulator exited with $? after SIGTERM"; pid=""
echo "PASS: curl session"
