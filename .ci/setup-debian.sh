#!/usr/bin/env bash
# Installs what spk needs on Debian 12 from Debian's own packages; installs nothing that is already there.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config zlib1g-dev libgtest-dev libcli11-dev nlohmann-json3-dev
          libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev libgraphblas-dev libeigen3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "spk: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
