# A throwaway PostgreSQL cluster on loopback, for the tests and the Deploy/ scripts.
# Sourced; defines functions only:
#
#   focal_postgres_start DIR [PORT]   initdb a new cluster in DIR (emptied first) and start it on
#                                      127.0.0.1:PORT (a free port when omitted); sets
#                                      FOCAL_POSTGRES_URL=postgres://focal@127.0.0.1:PORT/postgres
#   focal_postgres_stop DIR            stop the cluster in DIR (nothing when it is not running)
#   focal_free_port                    print a free TCP port on 127.0.0.1
#
# Installs Debian's `postgresql` when no server binaries are found (focal_apt_install, from
# prerequisites.sh, which is sourced first). The server never runs
# as root: under root it runs as the `postgres` user the package creates. Authentication is
# `trust` on loopback only, and fsync is off: the cluster is for tests and is thrown away.

focal_postgres_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    focal_apt_install postgresql >&2
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  fi
  [ -n "$bin" ] || { echo "error: no PostgreSQL server binaries after installing postgresql" >&2; return 2; }
  echo "$bin"
}

focal_free_port() {
  python3 "$(dirname "${BASH_SOURCE[0]}")/free_port.py"
}

# Runs a command as the cluster's owner: the current user, or `postgres` under root.
focal_postgres_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

focal_postgres_start() {
  local dir=$1 port=${2:-} bin
  bin=$(focal_postgres_bin) || return 2
  [ -n "$port" ] || port=$(focal_free_port)
  focal_postgres_stop "$dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  focal_postgres_as_owner "$bin/initdb" -D "$dir/data" -U focal --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 2; }
  focal_postgres_as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=300" \
    start >/dev/null || { cat "$dir/server.log" >&2; return 2; }
  export FOCAL_POSTGRES_URL="postgres://focal@127.0.0.1:$port/postgres"
}

focal_postgres_stop() {
  local dir=$1 bin
  [ -f "$dir/data/postmaster.pid" ] || return 0
  bin=$(focal_postgres_bin) || return 2
  focal_postgres_as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
}
