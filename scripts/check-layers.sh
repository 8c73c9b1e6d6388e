#!/usr/bin/env bash
# The layer rules of docs/architecture.md, checked on the tracked sources:
#   1. a layer includes only itself and the layers it may depend on (dependencies point down);
#      a tool's folder (a CLI's main and its printing) may also include cli/ and reports/ (the
#      documents it prints);
#   2. no non-test source file is longer than 600 lines;
#   3. only fwops/ includes fwops/transports/ (one file per transport): everything else reaches a
#      device through fwops/Device.h, whatever its transport;
#   4. mtcr/'s transport rooms (pci/, inband/, remote/) do not include one another, and a
#      transport file (fwops/transports/X) includes no other transport's room than its own.
# Exit 0 when all hold; otherwise one line per violation and exit 1.
#   scripts/check-layers.sh [REPO_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# What each library layer may include, bottom up.
declare -A allowed=(
  [core]=""
  [image]="core"
  [devices]="core image"
  [mtcr]="core devices"
  [flash]="core devices mtcr"
  [sim]="core devices image mtcr flash"
  [pcisim]="core devices image mtcr flash sim"
  [fwops]="core image devices mtcr flash sim"
  [fabricsim]="core devices mtcr flash sim"
  [fabric]="core image devices mtcr flash sim fwops fabricsim"
  [remote]="core image devices mtcr flash sim fwops"
  [burn]="core image devices fwops"
  [cli]="core image fwops"
  [reports]="core image devices mtcr flash fwops fabric cli"
  [web]="core image devices mtcr flash fwops fabric remote cli reports"
  [flint]="core image devices mtcr flash sim fwops cli reports"
  [hcasim]="core image devices mtcr flash sim pcisim fwops cli"
  [mst]="core image devices mtcr flash sim fwops fabricsim fabric remote cli reports web"
)
# Folders holding a tool's main: they may include cli/ and reports/ as well as their layer's allowance.
tool_dirs="fabricsim/responder fabricsim/simfabric fabricsim/tool fabric/ibadm fabric/ibfwmgr fabric/ibls fabric/ibmon fabric/ibcon fabric/ibtopogen fabric/options burn/cli"

violations=0
# One pass of git grep over every tracked source (a process per file took 11-40 s).
while IFS=: read -r file line text; do
  layer=${file%%/*}
  [[ -v allowed[$layer] ]] || continue
  target=${text#\#include \"}
  target=${target%%/*}
  ok=" $layer ${allowed[$layer]} "
  for t in $tool_dirs; do [[ $file == "$t"/* ]] && ok+=" cli reports "; done
  if [[ $ok != *" $target "* ]]; then
    echo "layers: $file:$line includes $target/, which $layer/ may not (allowed:$ok)"
    violations=$((violations + 1))
  fi
done < <(git grep -nE '^#include "[a-z_-]+/' -- '*.cpp' '*.h' || true)

while read -r n file; do
  [[ $file == total ]] && continue
  if (( n > 600 )); then
    echo "layers: $file has $n lines (at most 600 outside tests/)"
    violations=$((violations + 1))
  fi
done < <(git ls-files -z '*.cpp' '*.h' | grep -zv '^tests/' | xargs -0 wc -l)

while IFS=: read -r file line _; do
  echo "layers: $file:$line includes fwops/transports/, which only fwops/ may (use fwops/Device.h)"
  violations=$((violations + 1))
done < <(git grep -nE '^#include "fwops/transports/' -- '*.cpp' '*.h' ':!fwops/' || true)

# Rule 4: the room a file may use, by file; every other transport room is refused.
declare -A own_room=([fwops/transports/PciTransport.cpp]=pci [fwops/transports/InbandTransport.cpp]=inband
                     [fwops/transports/RemoteTransport.cpp]=remote [fwops/transports/NameTransport.cpp]=remote)
while IFS=: read -r file line text; do
  room=${text#\#include \"mtcr/}
  room=${room%%/*}
  mine=""
  [[ $file == mtcr/*/* ]] && mine=$(cut -d/ -f2 <<< "$file")
  [[ -v own_room[$file] ]] && mine=${own_room[$file]}
  [[ $file == fwops/transports/* || $file == mtcr/*/* ]] || continue
  [[ $file == mtcr/registers/* ]] && mine=none
  if [[ $room != "$mine" ]]; then
    echo "layers: $file:$line includes mtcr/$room/, another transport's room"
    violations=$((violations + 1))
  fi
done < <(git grep -nE '^#include "mtcr/(pci|inband|remote)/' -- 'mtcr/*/*' 'fwops/transports/*' || true)

if (( violations > 0 )); then
  echo "layers: $violations violation(s)"
  exit 1
fi
echo "layers: include directions and file sizes ok ($(git ls-files '*.cpp' '*.h' | wc -l) files)"
