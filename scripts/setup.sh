#!/usr/bin/env bash
# Installs the Debian 12 packages openflint builds and tests with. Idempotent: only missing
# packages are installed; needs root (or sudo) only when something is missing.
set -euo pipefail

PACKAGES=(
  # build
  build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
  libcli11-dev nlohmann-json3-dev zlib1g-dev liblzma-dev libpci-dev
  libibmad-dev libibumad-dev libibnetdisc-dev
  libgtest-dev libgmock-dev
  # test-time peers and tools
  mstflint ibsim-utils opensm infiniband-diags xz-utils time python3
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=()
if [[ $(id -u) -ne 0 ]]; then SUDO=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
