#!/usr/bin/env bash
# Installs the Debian 12 packages openflint builds and tests with. Idempotent: only missing
# packages are installed; needs root (or sudo) only when something is missing.
#   scripts/setup.sh        everything (scripts/test.sh: tests, fuzzing, the Debian package)
#   scripts/setup.sh demo   only what scripts/demo.sh builds and runs (a faster first command)
set -euo pipefail

DEMO=(
  # build
  build-essential cmake ninja-build pkg-config
  libcli11-dev nlohmann-json3-dev zlib1g-dev liblzma-dev libpci-dev libfuse3-dev libssl-dev
  libibmad-dev libibumad-dev libibnetdisc-dev
  # mst web's HTTP server
  libcpp-httplib-dev
  # the simulated fabric (ibsim, opensm, ibaddr) and the demo's JSON reading
  ibsim-utils opensm infiniband-diags python3
)
TEST=(
  # the test suite and the fuzz build
  clang libclang-rt-14-dev libgtest-dev libgmock-dev
  # test-time peers and tools
  mstflint pciutils fuse3 xz-utils time
  # the Ansible collection's tests (tests/ansible: ansible-playbook, ansible-doc, ansible-galaxy)
  ansible-core
  # the remote_ssh tests: a throwaway sshd on loopback and the ssh client the ssh: names run
  openssh-server openssh-client
  # the web console's browser tests (tests/web: headless chromium driven by chromedriver)
  chromium chromium-driver python3-selenium
  # the Debian package: man pages, dpkg-shlibdeps, its check (scripts/check-deb.sh; bash-completion
  # runs the packaged completion)
  help2man dpkg-dev lintian bash-completion
  # the packages_interop tests: the kernel's own MFA2 parser, built in a harness from its source
  # tarball (never copied into the project; docs/packages.md)
  linux-source-6.1
)
case "${1:-all}" in
  demo) PACKAGES=("${DEMO[@]}") ;;
  all)  PACKAGES=("${DEMO[@]}" "${TEST[@]}") ;;
  *) echo "usage: $0 [all|demo]" >&2; exit 2 ;;
esac

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
