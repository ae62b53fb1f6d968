#!/usr/bin/env bash
# Starts Debian's Postgres on loopback (as root, no systemd) and prints its admin URL.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PGVER=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_lsclusters -h | grep -q "^$PGVER main" || pg_createcluster "$PGVER" main >/dev/null 2>&1
pg_ctlcluster "$PGVER" main start >/dev/null 2>&1 || true
for _ in $(seq 1 40); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 0.5; done
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null
echo "postgres://postgres:postgres@127.0.0.1:5432/postgres"
