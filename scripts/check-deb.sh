#!/usr/bin/env bash
# Builds the Debian package from a release build dir and checks it: scripts/check-deb.sh DIR.
#   1. cpack -G DEB -> DIR/deb/openflint_VERSION_ARCH.deb (the tools, man pages, completion, docs)
#   2. lintian: no E: line (W: lines are listed)
#   3. dpkg -x into a scratch root; its flint --version and flint -i SAMPLE v run from there
# Fails on any error. DIR needs no full build: the package's inputs and the samples are built here.
set -euo pipefail
dir=${1:?usage: $0 BUILD_DIR}
dir=$(cd "$dir" && pwd)
scratch=$(mktemp -d /tmp/openflint-deb.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

echo "check-deb: building the package inputs and the sample images in $dir"
cmake --build "$dir" -j "${OPENFLINT_JOBS:-$(nproc)}" --target package_inputs firmware_samples >&2
rm -rf "$dir/deb"
cpack -G DEB --config "$dir/CPackConfig.cmake" -B "$dir/deb" >"$scratch/cpack.log" 2>&1 \
  || { cat "$scratch/cpack.log" >&2; exit 1; }
rm -rf "$dir/deb/_CPack_Packages"
deb=$(ls "$dir"/deb/*.deb)
echo "check-deb: $deb"
dpkg-deb --field "$deb"

echo "check-deb: lintian"
# Root is only warned about; --tag-display-limit 0 lists every W: line.
status=0
lintian --tag-display-limit 0 "$deb" >"$scratch/lintian.log" 2>&1 || status=$?
cat "$scratch/lintian.log"
if ((status > 1)); then
  echo "check-deb: lintian did not run (exit $status; scripts/setup.sh installs it)" >&2
  exit 1
fi
if ((status == 1)) || grep -q '^E: ' "$scratch/lintian.log"; then
  echo "check-deb: lintian reports errors" >&2
  exit 1
fi
echo "check-deb: lintian: $(grep -c '^E: ' "$scratch/lintian.log" || true) errors, $(grep -c '^W: ' "$scratch/lintian.log" || true) warnings"

echo "check-deb: dpkg -x into $scratch/root"
dpkg -x "$deb" "$scratch/root"
flint=$scratch/root/usr/bin/flint
sample=$dir/firmware-samples/connectx4-new.bin
(set -x; "$flint" --version; "$flint" -i "$sample" v)
for tool in fwburn hcasim ibadm ibfwmgr ibls ibmon ibcon ibtopogen mst simfabric ibsim-responder; do
  "$scratch/root/usr/bin/$tool" --version
done
for page in flint fwburn hcasim ibadm ibfwmgr ibls ibmon ibcon ibtopogen mst simfabric ibsim-responder; do
  [[ -s $scratch/root/usr/share/man/man1/$page.1.gz ]] || { echo "check-deb: no man page for $page" >&2; exit 1; }
done
# Completion: each tool's packaged file completes its subcommands (the packaged tools on PATH).
completions=$scratch/root/usr/share/bash-completion/completions
for tool_sub in flint:query fwburn:-fw hcasim:pci-serve ibadm:restart ibfwmgr:update ibls:--topology ibmon:--watch ibcon:--index ibtopogen:--spines mst:reset simfabric:run ibsim-responder:--sim; do
  tool=${tool_sub%%:*} want=${tool_sub#*:}
  [[ -s $completions/$tool ]] || { echo "check-deb: no $tool completion" >&2; exit 1; }
  got=$(PATH="$scratch/root/usr/bin:$PATH" bash -c '
    source /usr/share/bash-completion/bash_completion; source "$1"; tool=$2; cur=$3
    COMP_WORDS=("$tool" "$cur"); COMP_CWORD=1; COMP_LINE="$tool $cur"; COMP_POINT=${#COMP_LINE}
    f=$(complete -p "$tool" | sed -E "s/.*-F ([^ ]+).*/\1/"); "$f" 2>/dev/null; echo "${COMPREPLY[*]}"' \
    _ "$completions/$tool" "$tool" "${want:0:2}")
  [[ " $got " == *" $want "* ]] || { echo "check-deb: $tool completion of '${want:0:2}' gave '$got', not $want" >&2; exit 1; }
done
# mst web's service: packaged, disabled (no maintainer script enables it), its program in the package.
# (installed under the prefix: /usr/lib/systemd/system, where systemd looks on Debian 12)
unit=$scratch/root/usr/lib/systemd/system/openflint-web.service
[[ -s $unit ]] || { echo "check-deb: no usr/lib/systemd/system/openflint-web.service" >&2; exit 1; }
exec_line=$(sed -n 's/^ExecStart=//p' "$unit")
[[ -x $scratch/root${exec_line%% *} ]] || { echo "check-deb: the unit runs ${exec_line%% *}, not in the package" >&2; exit 1; }
# ibadm's unit likewise: packaged, disabled, its program in the package.
unit=$scratch/root/usr/lib/systemd/system/openflint-ibadm.service
[[ -s $unit ]] || { echo "check-deb: no usr/lib/systemd/system/openflint-ibadm.service" >&2; exit 1; }
exec_line=$(sed -n 's/^ExecStart=//p' "$unit")
[[ -x $scratch/root${exec_line%% *} ]] || { echo "check-deb: the unit runs ${exec_line%% *}, not in the package" >&2; exit 1; }
if dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -qE 'postinst|prerm'; then
  echo "check-deb: a maintainer script would enable or start the web console" >&2; exit 1
fi
"$scratch/root/usr/bin/mst" web --help | grep -q -- '--token-file' || { echo "check-deb: mst web has no --token-file" >&2; exit 1; }
echo "check-deb: ok"
