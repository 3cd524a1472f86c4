# Runs schemathesis (PyPI, installed into a venv under .build when missing) against
# Docs/openapi.yaml and a throwaway `focal serve` on loopback: generated requests must get
# documented statuses, headers and bodies, never a 5xx. Bounded: at most 40 cases per
# operation and 60 s of fuzzing, and 10 minutes in all.
# Sourced by Scripts/test after the build; needs .build/debug/focal.

# The body runs in a subshell, so that its EXIT trap (which stops the server and removes the
# scratch directory however the function ends) leaves the caller's own EXIT trap alone.
focal_schemathesis() (
  local venv=.build/schemathesis
  # Debian's python3 makes virtual environments only with python3-venv (ensurepip).
  python3 -c 'import ensurepip' 2>/dev/null || focal_apt_install python3-venv
  [ -x "$venv/bin/st" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q schemathesis; }
  local dir="" pid=""
  dir=$(mktemp -d)
  trap 'if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; rm -rf "$dir"' EXIT
  echo "match('*', () => ({ ok: true }));" > "$dir/index.js"
  # The document says every route but the probes needs a bearer key: serve with keys, and
  # give schemathesis one with every scope (it also checks that no key, or a wrong one, is refused).
  local key entry
  { read -r key; read -r entry; } < <(.build/debug/focal keys new --name schemathesis --scopes ingest read delete metrics)
  echo "{\"keys\": [$entry]}" > "$dir/keys.json"
  .build/debug/focal serve --tasks "$dir" --keys "$dir/keys.json" --port 0 --max-sessions-per-client 100000 > "$dir/out" 2> "$dir/log" &
  pid=$!
  local url=""
  for _ in $(seq 1 300); do
    url=$(sed -n 's/^listening on //p' "$dir/out")
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  local status=1
  if [ -n "$url" ]; then
    # negative_data_rejection is left out: a body is op-log text, and every generated
    # "schema-violating" body (a JSON object where the schema says string) is text too.
    PYTHONPATH=Scripts/lib SCHEMATHESIS_HOOKS=schemathesis_hooks timeout 600 "$venv/bin/st" run Docs/openapi.yaml --url "$url" \
      --header "Authorization: Bearer $key" \
      --checks all --exclude-checks negative_data_rejection --max-examples 40 --max-time 60 --workers 1 --seed 29 --generation-database none --no-color \
      --request-timeout 10 && status=0
  else
    echo "error: focal serve did not start for schemathesis" >&2
    cat "$dir/log" >&2
  fi
  exit $status
)
