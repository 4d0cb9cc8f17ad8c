#!/usr/bin/env bash
# Runs the official MCP conformance suite's server scenarios against a Switchboard serving
# the quickstart's stdio servers (server-everything, server-memory).
#   scripts/conformance.sh [scenario...]      (default: every server scenario, 2025-11-25, suite 0.1.16)
#   scripts/conformance.sh --spec-version 2026-07-28 [scenario...]
#       (suite 0.2.0-alpha.12, every 2026-07-28 server scenario: --suite all, judged against
#       test/conformance/expected-failures-2026-07-28.yaml: the scenarios and checks that do
#       not apply to an aggregator, each with its reason)
# The suite needs Node 22; it and a Node 22 binary (from the npm registry) are installed once
# into a cache (scripts/conformance-env.sh). Results: one line per scenario, then the suite's
# own summary; exit status is the suite's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
spec=""
if [ "${1:-}" = --spec-version ]; then
  spec=${2:?--spec-version needs a revision}
  shift 2
  [ "$spec" = 2026-07-28 ] || { echo "conformance.sh: only --spec-version 2026-07-28 is known (2025-11-25 is the default run)" >&2; exit 2; }
  conformance_version=0.2.0-alpha.12
fi
. "$root/scripts/conformance-env.sh"
config=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$config"' EXIT
mkdir -p "$config/mcpservers"
cat > "$config/mcpservers/everything.yaml" <<YAML
name: everything
type: stdio
command: [node, "$root/node_modules/@modelcontextprotocol/server-everything/dist/index.js", stdio]
autoStart: true
YAML
cat > "$config/mcpservers/memory.yaml" <<YAML
name: memory
type: stdio
command: [node, "$root/node_modules/@modelcontextprotocol/server-memory/dist/index.js"]
autoStart: true
env: { MEMORY_FILE_PATH: "$config/memory.jsonl" }
YAML
log="$config/switchboard.log"
node "$root/bin/switchboard.js" serve --config-path "$config" --port 0 --host 127.0.0.1 >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -q 'ready:' "$log" && break
  sleep 0.1
done
port=$(grep -o 'listening on http://[^ ]*' "$log" | grep -o '[0-9]*/mcp$' | cut -d/ -f1)
url="http://127.0.0.1:$port/mcp"
echo "Switchboard at $url"
if [ -n "$spec" ]; then
  baseline=(--spec-version "$spec" --expected-failures "$root/test/conformance/expected-failures-$spec.yaml")
  if [ $# -gt 0 ]; then
    status=0
    for s in "$@"; do "$node22" "$suite" server --url "$url" "${baseline[@]}" --scenario "$s" || status=1; done
    exit $status
  fi
  "$node22" "$suite" server --url "$url" --suite all "${baseline[@]}" -o "${CONFORMANCE_RESULTS:-$config/results}"
  exit
fi
if [ $# -gt 0 ]; then
  status=0
  for s in "$@"; do "$node22" "$suite" server --url "$url" --scenario "$s" || status=1; done
  exit $status
fi
"$node22" "$suite" server --url "$url" --suite all
