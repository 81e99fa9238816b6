#!/usr/bin/env bash
# Regenerates the committed Java sources of the Thrift and Ice contracts (src/generated/java)
# from src/main/thrift/order.thrift and src/main/slice/Order.ice.
#
#   contract/regenerate.sh          rewrite src/generated/java
#   contract/regenerate.sh --check  fail if the committed sources differ from the IDL's
#
# The compilers are native programs, not on Maven Central; on Debian:
#   apt-get install thrift-compiler zeroc-ice-compilers      (thrift 0.17, slice2java 3.7)
# The protobuf contract needs none of this: Maven generates it during the build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/src/generated/java"

for tool in thrift slice2java; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found; apt-get install thrift-compiler zeroc-ice-compilers" >&2; exit 2; }
done

generate() {
  local dir="$1"
  rm -rf "$dir" && mkdir -p "$dir"
  thrift --gen java:generated_annotations=suppress -out "$dir" "$here/src/main/thrift/order.thrift"
  slice2java --output-dir "$dir" "$here/src/main/slice/Order.ice"
}

if [[ "${1:-}" == "--check" ]]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp" "$tmp.diff"' EXIT
  generate "$tmp"
  if ! diff -r "$out" "$tmp" > "$tmp.diff"; then
    echo "error: contract/src/generated/java is out of date with the IDL; run contract/regenerate.sh and commit:" >&2
    head -40 "$tmp.diff" >&2
    exit 1
  fi
  echo "generated contract sources match the IDL ($(thrift --version), slice2java $(slice2java --version 2>&1))"
else
  generate "$out"
  echo "regenerated $out"
fi
