#!/usr/bin/env bash
# The patched engine under names of its own: four crates of one rquickjs release (the version
# in vendor/rquickjs.version), each the published crate plus patches, in this order:
#
#   rquickjs-sys   -> vendor/codemode-quickjs-sys     vendor/patches/*.patch (the engine
#                                                     series), then vendor/fork/rquickjs-sys.patch
#   rquickjs-core  -> vendor/codemode-rquickjs-core   vendor/fork/rquickjs-core.patch, then
#                                                     vendor/fork/rquickjs-core/*.patch
#   rquickjs-macro -> vendor/codemode-rquickjs-macro  vendor/fork/rquickjs-macro.patch
#   rquickjs       -> vendor/codemode-rquickjs        vendor/fork/rquickjs.patch
#
# A fork patch gives the crate its own name and points its rquickjs dependencies at the other
# forks (see vendor/README.md); the engine series changes the C sources.
#
#   vendor/apply-patches.sh          rebuild the four trees from the pristine crates of the
#       release (fetched into cargo's registry cache with `cargo fetch` when absent), apply
#       the patches, and record each pristine crate's checksums in vendor/checksums/.
#   vendor/apply-patches.sh --check  verify that each committed tree is exactly its recorded
#       pristine crate plus its patches (reverse-applies them to a copy and compares every
#       file with the recorded checksums). Needs no network and no registry cache.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version="$(cat "$here/rquickjs.version")"
crates=(rquickjs-sys rquickjs-core rquickjs-macro rquickjs)
series=("$here"/patches/*.patch)

fail() { echo "apply-patches: $*" >&2; exit 1; }
command -v patch >/dev/null || fail "the 'patch' program is needed and is not installed."

# The directory under vendor/ that holds an upstream crate's fork.
tree_of() { [[ "$1" == rquickjs-sys ]] && echo codemode-quickjs-sys || echo "codemode-$1"; }
# An upstream crate's patches, in the order they apply: a fork's own changes beyond its
# name, one concern each, follow its fork patch (vendor/fork/<crate>/*.patch).
patches_of() {
  [[ "$1" == rquickjs-sys ]] && printf '%s\n' "${series[@]}"
  echo "$here/fork/$1.patch"
  for p in "$here/fork/$1"/*.patch; do [[ -e "$p" ]] && echo "$p"; done
  return 0
}
# Every file of a tree, relative, sorted, with its sha256 (the format sha256sum -c reads).
checksums() { (cd "$1" && find . -type f ! -name .cargo-ok -print0 | LC_ALL=C sort -z | xargs -0 sha256sum); }

if [[ "${1:-}" == "--check" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  for crate in "${crates[@]}"; do
    tree="$(tree_of "$crate")"
    mapfile -t patches < <(patches_of "$crate")
    cp -a "$here/$tree" "$work/$tree"
    for ((i = ${#patches[@]} - 1; i >= 0; i--)); do
      patch -d "$work/$tree" -p1 -R --quiet --no-backup-if-mismatch <"${patches[$i]}" \
        || fail "$(basename "${patches[$i]}") does not reverse-apply to vendor/$tree: the committed tree is not $crate $version + its patches."
    done
    if ! diff <(checksums "$work/$tree") "$here/checksums/$crate.sha256" >"$work/diff"; then
      cat "$work/diff" >&2
      fail "vendor/$tree minus its patches differs from the recorded pristine $crate $version (files listed above)."
    fi
    echo "apply-patches: vendor/$tree is $crate $version + ${#patches[@]} patches."
  done
  exit 0
fi

registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
pristine_of() { ls -d "$registry"/*/"$1-$version" 2>/dev/null | head -1 || true; }

if [[ -z "$(pristine_of rquickjs-sys)" || -z "$(pristine_of rquickjs-macro)" ]]; then
  # A throwaway crate depending on the release makes cargo download and unpack all four.
  fetch="$(mktemp -d)"
  trap 'rm -rf "$fetch"' EXIT
  mkdir "$fetch/src" && : >"$fetch/src/lib.rs"
  printf '[package]\nname = "fetch-rquickjs"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nrquickjs = { version = "=%s", features = ["macro"] }\n' \
    "$version" >"$fetch/Cargo.toml"
  cargo fetch --manifest-path "$fetch/Cargo.toml" \
    || fail "cargo could not fetch rquickjs $version (the version in vendor/rquickjs.version) from crates.io."
fi

for crate in "${crates[@]}"; do
  pristine="$(pristine_of "$crate")"
  [[ -n "$pristine" ]] || fail "no pristine $crate-$version in cargo's registry cache ($registry)."
  grep -q "^version = \"$version\"" "$pristine/Cargo.toml" \
    || fail "$pristine is not $crate $version."
  tree="$(tree_of "$crate")"
  rm -rf "${here:?}/$tree"
  cp -a "$pristine" "$here/$tree"
  rm -f "$here/$tree/.cargo-ok"
  checksums "$here/$tree" >"$here/checksums/$crate.sha256"
  mapfile -t patches < <(patches_of "$crate")
  for p in "${patches[@]}"; do
    patch -d "$here/$tree" -p1 --quiet --no-backup-if-mismatch <"$p" \
      || fail "$(basename "$p") does not apply to $crate $version: refresh it against the new sources (see vendor/README.md)."
  done
  echo "apply-patches: vendor/$tree is $crate $version + ${#patches[@]} patches."
done
