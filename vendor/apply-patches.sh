#!/usr/bin/env bash
# The engine patch series: the published rquickjs-sys, plus vendor/patches/*.patch in order.
#
#   vendor/apply-patches.sh [PRISTINE_DIR]   rebuild vendor/rquickjs-sys from a pristine
#       rquickjs-sys source tree (default: the version named in vendor/rquickjs-sys.version,
#       from cargo's registry cache), apply the series, and record the pristine tree's
#       checksums in vendor/rquickjs-sys.sha256.
#   vendor/apply-patches.sh --check          verify that the committed vendor/rquickjs-sys is
#       exactly the recorded pristine tree plus the series (reverse-applies the series to a
#       copy and compares every file with the recorded checksums). Needs no network and no
#       registry cache.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree="$here/rquickjs-sys"
sums="$here/rquickjs-sys.sha256"
version="$(cat "$here/rquickjs-sys.version")"
patches=("$here"/patches/*.patch)

fail() { echo "apply-patches: $*" >&2; exit 1; }
command -v patch >/dev/null || fail "the 'patch' program is needed and is not installed."

# Every file of a tree, relative, sorted, with its sha256 (the format sha256sum -c reads).
checksums() { (cd "$1" && find . -type f ! -name .cargo-ok -print0 | LC_ALL=C sort -z | xargs -0 sha256sum); }

if [[ "${1:-}" == "--check" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  cp -a "$tree" "$work/tree"
  for ((i = ${#patches[@]} - 1; i >= 0; i--)); do
    patch -d "$work/tree" -p1 -R --quiet --no-backup-if-mismatch <"${patches[$i]}" \
      || fail "$(basename "${patches[$i]}") does not reverse-apply to vendor/rquickjs-sys: the committed tree is not pristine + the series."
  done
  if ! diff <(checksums "$work/tree") "$sums" >"$work/diff"; then
    cat "$work/diff" >&2
    fail "vendor/rquickjs-sys minus the series differs from the recorded pristine rquickjs-sys $version (files listed above)."
  fi
  echo "apply-patches: vendor/rquickjs-sys is rquickjs-sys $version + ${#patches[@]} patches."
  exit 0
fi

pristine="${1:-}"
if [[ -z "$pristine" ]]; then
  pristine="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rquickjs-sys-"$version" 2>/dev/null | head -1 || true)"
  [[ -n "$pristine" ]] || fail "no pristine rquickjs-sys-$version in cargo's registry cache; pass its directory (e.g. an unpacked .crate) as the argument."
fi
[[ -f "$pristine/Cargo.toml" ]] || fail "$pristine is not an rquickjs-sys source tree (no Cargo.toml)."
grep -q "^version = \"$version\"" "$pristine/Cargo.toml" \
  || fail "$pristine is not rquickjs-sys $version; to move to another release, write its version in vendor/rquickjs-sys.version first."

rm -rf "$tree"
cp -a "$pristine" "$tree"
rm -f "$tree/.cargo-ok"
checksums "$tree" >"$sums"
for p in "${patches[@]}"; do
  patch -d "$tree" -p1 --quiet --no-backup-if-mismatch <"$p" \
    || fail "$(basename "$p") does not apply to rquickjs-sys $version: refresh it against the new sources (see vendor/README.md)."
  echo "applied $(basename "$p")"
done
echo "apply-patches: vendor/rquickjs-sys is rquickjs-sys $version + ${#patches[@]} patches."
