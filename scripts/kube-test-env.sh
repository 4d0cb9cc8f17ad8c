#!/usr/bin/env bash
# A real Kubernetes API server for the store-kubernetes tests: kube-apiserver built from source
# through the Go module proxy (no release binaries are reachable here), etcd from Debian.
#   scripts/kube-test-env.sh build           build once into the cache (minutes the first time)
#   scripts/kube-test-env.sh start DIR       start etcd + kube-apiserver on loopback (trusting an OIDC
#                                            issuer when KUBE_OIDC_ISSUER_URL, _CLIENT_ID, _CA_FILE are set; ending
#                                            every watch after 1-2x KUBE_MIN_REQUEST_TIMEOUT seconds when set); writes
#                                            DIR/kubeconfig (admin), DIR/env (KUBE_* variables),
#                                            DIR/pids; tokens in DIR/tokens.csv
#   scripts/kube-test-env.sh stop DIR
#   scripts/kube-test-env.sh helm            build helm once into the cache; prints its path
#   scripts/kube-test-env.sh prepare         all of it once (kube-apiserver, etcd, helm): .ci/run, before the suite
# Cache: ${SWITCHBOARD_KUBE_CACHE:-~/.cache/switchboard-kube}. Needs Go and openssl; installs
# etcd-server with apt-get when missing.
set -euo pipefail
VERSION=${KUBE_VERSION:-1.34.2}
cache=${SWITCHBOARD_KUBE_CACHE:-$HOME/.cache/switchboard-kube}
apiserver="$cache/kube-apiserver-$VERSION"

# Parallel test files ask for the same binary at once: on a cold cache each would build it
# (minutes of CPU each, on the same cores; seen: three builds of kube-apiserver side by side,
# 36 minutes, every kube test file timed out). The first takes the cache's lock and builds;
# the others wait on the lock and find the binary done. The lock is released when its holder
# exits, however it exits (flock on a descriptor of this shell).
with_cache_lock() {
  mkdir -p "$cache"
  exec 9>"$cache/.build.lock"
  flock 9
}

build() {
  [ -x "$apiserver" ] && return 0
  with_cache_lock
  [ -x "$apiserver" ] && { exec 9>&-; return 0; }
  command -v go >/dev/null || { echo "kube-test-env: Go is needed to build kube-apiserver" >&2; exit 1; }
  local mod; mod=$(mktemp -d)
  local minor=${VERSION#1.}
  {
    echo 'module switchboard.test/kube-apiserver'
    echo 'go 1.24'
    echo "require k8s.io/kubernetes v$VERSION"
    echo 'replace ('
    # Every staging module of k8s.io/kubernetes, at the matching v0.x release.
    curl -sf "https://proxy.golang.org/k8s.io/kubernetes/@v/v$VERSION.mod" \
      | sed -n '/^replace (/,/^)/p' | grep '=> ./staging' | awk -v v="v0.$minor" '{print "\t" $1 " => " $1 " " v}'
    echo ')'
  } > "$mod/go.mod"
  printf 'package main\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver/app"\nfunc main() {}\n' > "$mod/tools.go"
  (cd "$mod" && go mod tidy >/dev/null 2>&1 || true; go mod download k8s.io/kubernetes >/dev/null 2>&1 || true
   GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' -o "$apiserver.tmp.$$" k8s.io/kubernetes/cmd/kube-apiserver)
  # Built beside its final name and renamed: a start never sees half a binary.
  mv "$apiserver.tmp.$$" "$apiserver"
  rm -rf "$mod"
  exec 9>&-
}

helm_bin() {
  local helm="$cache/bin/helm"
  if [ ! -x "$helm" ]; then
    with_cache_lock
  fi
  if [ ! -x "$helm" ]; then
    command -v go >/dev/null || { echo "kube-test-env: Go is needed to build helm" >&2; exit 1; }
    GOFLAGS=-mod=mod GOBIN="$cache/bin" go install helm.sh/helm/v3/cmd/helm@v3.19.2 >/dev/null 2>&1
  fi
  echo "$helm"
}

ensure_etcd() {
  command -v etcd >/dev/null && return 0
  # Two installs at once: the second would fail on dpkg's lock.
  with_cache_lock
  command -v etcd >/dev/null && { exec 9>&-; return 0; }
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends etcd-server; } >/dev/null 2>&1 \
    || { echo "kube-test-env: etcd-server could not be installed" >&2; exit 1; }
  exec 9>&-
}

# Ports: the test harness names them (KUBE_ETCD_PORT, KUBE_PEER_PORT, KUBE_API_PORT), reserved
# across its parallel workers outside the ephemeral range (test/support/free-port.ts); run by
# hand, any free ones.
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

start() {
  local dir=$1; mkdir -p "$dir"
  build; ensure_etcd
  local etcd_port peer_port api_port
  etcd_port=${KUBE_ETCD_PORT:-$(free_port)}; peer_port=${KUBE_PEER_PORT:-$(free_port)}; api_port=${KUBE_API_PORT:-$(free_port)}
  # Certificates: a CA, the serving certificate for 127.0.0.1, the service-account key. P-256
  # keys: three RSA keys took 1.2 s of CPU at every start (seven a suite), these take none.
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256)
  openssl req -x509 "${ec[@]}" -nodes -days 2 -subj /CN=kube-test-ca -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
  openssl req "${ec[@]}" -nodes -subj /CN=kube-apiserver -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$dir/san.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 -extfile "$dir/san.ext" -out "$dir/server.crt" 2>/dev/null
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/sa.key" 2>/dev/null
  # Static tokens: an admin, the controller's service identity, and two people.
  local admin controller alice bob
  admin=$(openssl rand -hex 16); controller=$(openssl rand -hex 16); alice=$(openssl rand -hex 16); bob=$(openssl rand -hex 16)
  cat > "$dir/tokens.csv" <<CSV
$admin,admin,admin-uid,"system:masters"
$controller,system:serviceaccount:switchboard:switchboard,controller-uid,"system:serviceaccounts,system:authenticated"
$alice,alice,alice-uid,"system:authenticated"
$bob,bob,bob-uid,"system:authenticated"
CSV
  # Audit: who wrote Switchboard's resources (writes as the caller are checked against it).
  cat > "$dir/audit-policy.yaml" <<POLICY
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Metadata
    resources: [{group: switchboard.dev}]
    verbs: [create, update, patch, delete]
  - level: None
POLICY
  etcd --data-dir "$dir/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "default=http://127.0.0.1:$peer_port" >"$dir/etcd.log" 2>&1 &
  echo $! > "$dir/pids"
  # API Priority and Fairness off: its configuration controller and per-request queuing cost
  # 0.35 s of CPU at each start (3.4 -> 3.1 s to ready), and no test sends the load it shapes.
  "$apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" --bind-address 127.0.0.1 --secure-port "$api_port" \
    --advertise-address 127.0.0.1 --tls-cert-file "$dir/server.crt" --tls-private-key-file "$dir/server.key" \
    --client-ca-file "$dir/ca.crt" --token-auth-file "$dir/tokens.csv" --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$dir/sa.key" \
    --service-account-signing-key-file "$dir/sa.key" --service-cluster-ip-range 10.0.0.0/24 \
    --disable-admission-plugins ServiceAccount --enable-priority-and-fairness=false \
    --audit-policy-file "$dir/audit-policy.yaml" --audit-log-path "$dir/audit.log" \
    ${KUBE_MIN_REQUEST_TIMEOUT:+--min-request-timeout "$KUBE_MIN_REQUEST_TIMEOUT"} \
    ${KUBE_OIDC_ISSUER_URL:+--oidc-issuer-url "$KUBE_OIDC_ISSUER_URL" --oidc-client-id "$KUBE_OIDC_CLIENT_ID" --oidc-ca-file "$KUBE_OIDC_CA_FILE" --oidc-username-claim email --oidc-groups-claim groups} \
    >"$dir/apiserver.log" 2>&1 &
  echo $! >> "$dir/pids"
  local server="https://127.0.0.1:$api_port"
  for _ in $(seq 1 300); do
    curl -sf --cacert "$dir/ca.crt" -H "Authorization: Bearer $admin" "$server/readyz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -sf --cacert "$dir/ca.crt" -H "Authorization: Bearer $admin" "$server/readyz" >/dev/null || { echo "kube-test-env: the API server did not become ready (see $dir/apiserver.log)" >&2; exit 1; }
  cat > "$dir/kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: "$server", certificate-authority: "$dir/ca.crt"}}]
users: [{name: admin, user: {token: "$admin"}}]
contexts: [{name: test, context: {cluster: test, user: admin, namespace: switchboard}}]
current-context: test
YAML
  cat > "$dir/env" <<ENV
KUBE_SERVER=$server
KUBE_CA=$dir/ca.crt
KUBE_ADMIN_TOKEN=$admin
KUBE_CONTROLLER_TOKEN=$controller
KUBE_ALICE_TOKEN=$alice
KUBE_BOB_TOKEN=$bob
ENV
  echo "$server"
}

stop() {
  local dir=$1
  [ -f "$dir/pids" ] && while read -r pid; do kill "$pid" 2>/dev/null || true; done < "$dir/pids"
  rm -f "$dir/pids"
}

case "${1:-}" in
  build) build; echo "$apiserver" ;;
  prepare) build >/dev/null; ensure_etcd; helm_bin >/dev/null ;;
  start) start "${2:?directory}" ;;
  stop) stop "${2:?directory}" ;;
  helm) helm_bin ;;
  *) echo "usage: $0 build | start DIR | stop DIR | helm | prepare" >&2; exit 2 ;;
esac
