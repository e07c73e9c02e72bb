#!/bin/sh
# The production steps, in one place for the Dockerfile, compose.yaml, systemd or any other
# process manager. It runs a built tree (`npm run build`, then `npm ci --omit=dev`) against
# DATABASE_URL; TypeScript, tsx and Vite are not needed.
#
#   scripts/production.sh serve        apply pending migrations, then run the HTTP server
#   scripts/production.sh worker       apply pending migrations, then run the background jobs
#   scripts/production.sh migrate      only apply pending migrations
#   scripts/production.sh healthcheck  exit 0 when this host's server answers GET /healthz
#   scripts/production.sh <command>    any other subshare command (create-admin, backup, ...)
#
# `subshare migrate` holds a PostgreSQL advisory lock while it works, so replicas that start
# together apply each migration once and the others wait for it. The last step is exec'd, so
# the signals a process manager sends (SIGTERM, SIGINT) reach node itself, which drains and stops.
set -eu

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cli="$root/packages/cli/dist/main.js"

if [ ! -f "$cli" ]; then
  echo "production.sh: $cli is missing: run \`npm run build\` first." >&2
  exit 1
fi

# Runs one step in the foreground and passes a SIGTERM or SIGINT on to it, so a stop request
# during the migrations stops them and this script (a shell that is PID 1 in a container would
# ignore the signal otherwise).
stopped=''
step() {
  node "$cli" "$@" &
  pid=$!
  trap 'stopped=1; kill -TERM "$pid" 2>/dev/null' TERM INT
  status=0
  wait "$pid" || status=$?
  # wait returns early (> 128) when a trapped signal arrives: wait again for the real exit status.
  while kill -0 "$pid" 2>/dev/null; do wait "$pid" || status=$?; done
  trap - TERM INT
  if [ -n "$stopped" ]; then exit 143; fi
  return "$status"
}

[ "$#" -gt 0 ] || set -- serve
case "$1" in
  serve | worker)
    step migrate
    exec node "$cli" "$@"
    ;;
  healthcheck)
    exec node -e '
      const port = process.env.PORT || "3000";
      fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) })
        .then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1));
    '
    ;;
  *)
    exec node "$cli" "$@"
    ;;
esac
