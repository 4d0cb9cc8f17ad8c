#!/usr/bin/env bash
# Runs the official MCP conformance suite's client auth scenarios against Switchboard's OAuth
# client (test/conformance/oauth-client.ts drives it: a Switchboard aggregating the suite's
# protected server, core_auth_login, the sign-in followed like a browser, a tool call).
#   scripts/conformance-client.sh [scenario...]   (default: every auth/* scenario)
# Prints one line per scenario (PASSED/FAILED with the suite's counts); exit status 1 when any failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/conformance-env.sh"
[ -f "$root/dist/test/conformance/oauth-client.js" ] || (cd "$root" && npx tsc -p tsconfig.json)
if [ $# -gt 0 ]; then scenarios=("$@"); else
  mapfile -t scenarios < <("$node22" "$suite" list 2>/dev/null | sed -n 's/^  - \(auth\/[^ ]*\).*/\1/p')
fi
status=0
for s in "${scenarios[@]}"; do
  # The suite's 30 s default timed out on a loaded two-core machine (a Switchboard start and a
  # sign-in per scenario); SWITCHBOARD_CONFORMANCE_TIMEOUT_MS overrides 120 s. The driver exits
  # after one tool call: WebAssembly on the baseline tier, as Switchboard's own client commands
  # run it (app/cli/client-wasm-tier.ts), so it does not wait at exit for fetch's parser to be
  # optimized.
  out=$("$node22" "$suite" client --command "node --liftoff-only $root/dist/test/conformance/oauth-client.js" --scenario "$s" \
    --timeout "${SWITCHBOARD_CONFORMANCE_TIMEOUT_MS:-120000}" 2>&1 || true)
  summary=$(printf '%s\n' "$out" | grep -E '^Passed: ' | tail -1)
  if printf '%s\n' "$out" | grep -q 'OVERALL: PASSED'; then echo "PASSED  $s  ($summary)"; else echo "FAILED  $s  ($summary)"; status=1
    [ -n "${VERBOSE:-}" ] && printf '%s\n' "$out" | grep -E 'FAILURE|Error' | head -5
  fi
done
exit $status
