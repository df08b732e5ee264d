#!/usr/bin/env bash
# Rebuild the vendored graph-layout library from pinned npm versions.
#
#   scripts/vendor_js.sh
#
# For each package below: `npm pack <name>@<exact version>` in a temporary directory, check the
# tarball against the pinned integrity hash (the same sha512 a package-lock records), extract
# its UMD `dist/<name>.min.js` and its LICENSE. Writes, and nothing else:
#
#   src/mnemex/web/static/vendor/d3-force.bundle.min.js   the .min.js files in dependency order,
#                                                         under a header naming package@version
#   src/mnemex/web/static/vendor/LICENSES.txt             each package's version and full licence
#
# The output depends only on the pinned tarballs, so a re-run is byte-identical; the sha256 of
# both files is printed at the end. To upgrade: change a version, run
# `npm pack <name>@<version> --json` to read its new integrity, and re-run this script.
set -euo pipefail

# name version licence integrity -- dependency order: d3-force needs the other three
# (`npm view d3-force@3.0.0 dependencies` -> d3-dispatch, d3-quadtree, d3-timer: "1 - 3").
PACKAGES=(
  "d3-dispatch 3.0.1 ISC sha512-rzUyPU/S7rwUflMyLc1ETDeBj0NRuHKKAcvukozwhshr6g6c5d8zh4c2gQjY2bZ0dXeGLWc1PF174P2tVvKhfg=="
  "d3-quadtree 3.0.1 ISC sha512-04xDrxQTDTCFwP5H6hRhsRcb9xxv2RzkcsygFzmkSIOJy3PeRJP7sNk3VRIbKXcog561P9oU0/rVH6vDROAgUw=="
  "d3-timer 3.0.1 ISC sha512-ndfJ/JxxMd3nw31uyKoY2naivF+r29V+Lc0svZxe1JvvIRmi8hUsrMvdOwgS1o6uBHmiz91geQ0ylPP0aj1VUA=="
  "d3-force 3.0.0 ISC sha512-zxV/SsA+U4yte8051P4ECydjD/S+qeYtnaIyAs9tgHCqfguma/aAQDjo85A9Z6EKhBirHRJHXIgJUlffT4wdLg=="
)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/src/mnemex/web/static/vendor"
BUNDLE="$OUT/d3-force.bundle.min.js"
LICENSES="$OUT/LICENSES.txt"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export LC_ALL=C

integrity() {  # the npm "integrity" string of a file
  node -e 'const c=require("crypto"),f=require("fs");
    process.stdout.write("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$1"
}

: >"$TMP/header.txt"
: >"$TMP/body.js"
{
  echo "Third-party software vendored in src/mnemex/web/static/vendor/d3-force.bundle.min.js"
  echo "(rebuilt by scripts/vendor_js.sh from the npm registry)."
} >"$TMP/licenses.txt"

for entry in "${PACKAGES[@]}"; do
  read -r name version licence want <<<"$entry"
  dir="$TMP/$name"
  mkdir -p "$dir"
  (cd "$dir" && npm pack "$name@$version" --silent >/dev/null)
  tgz="$dir/$name-$version.tgz"
  [[ -f "$tgz" ]] || { echo "npm pack did not produce $tgz" >&2; exit 1; }
  got="$(integrity "$tgz")"
  if [[ "$got" != "$want" ]]; then
    echo "integrity mismatch for $name@$version: got $got, pinned $want" >&2
    exit 1
  fi
  tar -xzf "$tgz" -C "$dir" package/LICENSE "package/dist/$name.min.js" package/package.json
  pkg_version="$(node -p 'require(process.argv[1]).version' "$dir/package/package.json")"
  pkg_licence="$(node -p 'require(process.argv[1]).license' "$dir/package/package.json")"
  if [[ "$pkg_version" != "$version" || "$pkg_licence" != "$licence" ]]; then
    echo "$name: package.json says $pkg_version/$pkg_licence, pinned $version/$licence" >&2
    exit 1
  fi
  copyright="$(grep -m1 -i '^copyright' "$dir/package/LICENSE" || true)"
  [[ -n "$copyright" ]] || { echo "$name: no copyright line in its LICENSE" >&2; exit 1; }
  echo " *  $name@$version  licence: $licence  $copyright" >>"$TMP/header.txt"
  {
    echo
    cat "$dir/package/dist/$name.min.js"
    echo
  } >>"$TMP/body.js"
  {
    echo
    echo "================================================================================"
    echo "$name@$version  ($licence)  https://github.com/d3/$name"
    echo "================================================================================"
    echo
    cat "$dir/package/LICENSE"
  } >>"$TMP/licenses.txt"
done

{
  echo "/*! mnemex vendored graph layout: d3-force and its dependencies, built by scripts/vendor_js.sh"
  echo " *  from the npm packages below (their UMD dist/*.min.js, unmodified, in dependency order)."
  cat "$TMP/header.txt"
  echo " *  Full licence texts: LICENSES.txt beside this file. */"
  cat "$TMP/body.js"
} >"$TMP/bundle.js"

mkdir -p "$OUT"
# normalise: no CR, exactly one trailing newline
for f in bundle.js licenses.txt; do
  tr -d '\r' <"$TMP/$f" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$TMP/$f.norm"
done
cp "$TMP/bundle.js.norm" "$BUNDLE"
cp "$TMP/licenses.txt.norm" "$LICENSES"

echo "wrote ${BUNDLE#"$ROOT"/} and ${LICENSES#"$ROOT"/}"
(cd "$ROOT" && sha256sum "${BUNDLE#"$ROOT"/}" "${LICENSES#"$ROOT"/}")
