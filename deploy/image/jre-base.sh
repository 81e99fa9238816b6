#!/usr/bin/env bash
# Makes a base image for Jib where no container registry is reachable (CI here reaches Maven Central
# only): a Java runtime cut from this machine's JDK by jlink, the C libraries it links, /tmp and a
# passwd entry, as a `docker save` tar that Jib takes as `-Djib.from.image=tar://<file>`. With a
# registry, leave it: the pom's base is eclipse-temurin:17-jre.
#   deploy/image/jre-base.sh [out.tar]    (default loadtest/target/jre-base.tar)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-loadtest/target/jre-base.tar}"
jdk="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
[ -d "$jdk/jmods" ] || { echo "error: $jdk has no jmods: jlink needs a full JDK (set JAVA_HOME)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/opt/java" "$root/tmp" "$root/etc" "$root/work" "$root/results"
chmod 1777 "$root/tmp"
"$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules "$("$jdk/bin/java" --list-modules | sed "s/@.*//" | grep -v incubator | paste -sd,)" --strip-debug --no-header-files \
  --no-man-pages --compress=2 --output "$root/opt/java/openjdk"
# The libraries the runtime links (glibc, libstdc++, zlib...): found by ldd, copied at their own paths.
find "$root/opt/java/openjdk" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 \
  | xargs -0 ldd 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $1 !~ /:$/ {print $1}' | sort -u \
  | while read -r lib; do
      mkdir -p "$root$(dirname "$lib")"
      cp -L "$lib" "$root$lib"
    done
echo 'root:x:0:0:root:/root:/sbin/nologin' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
mkdir -p "$(dirname "$out")"
python3 - "$root" "$out" <<'PY'
import hashlib, io, json, os, sys, tarfile
root, out = sys.argv[1], sys.argv[2]
layer = io.BytesIO()
with tarfile.open(fileobj=layer, mode="w", format=tarfile.PAX_FORMAT) as t:
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs) + sorted(files):
            p = os.path.join(d, name)
            info = t.gettarinfo(p, os.path.relpath(p, root))
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mtime = 0
            if info.isfile():
                with open(p, "rb") as f:
                    t.addfile(info, f)
            else:
                t.addfile(info)
data = layer.getvalue()
diff_id = "sha256:" + hashlib.sha256(data).hexdigest()
config = json.dumps({
    "architecture": "amd64", "os": "linux",
    "config": {"Env": ["PATH=/opt/java/openjdk/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java/openjdk", "LANG=C.UTF-8"]},
    "rootfs": {"type": "layers", "diff_ids": [diff_id]},
}).encode()
config_name = hashlib.sha256(config).hexdigest() + ".json"
manifest = json.dumps([{"Config": config_name, "RepoTags": ["rpc-load-lab/jre-base:17"], "Layers": ["layer.tar"]}]).encode()
with tarfile.open(out, "w") as t:
    for name, blob in (("layer.tar", data), (config_name, config), ("manifest.json", manifest)):
        info = tarfile.TarInfo(name)
        info.size = len(blob)
        t.addfile(info, io.BytesIO(blob))
print(f"{out}: {len(data) // (1024 * 1024)} MiB layer, {diff_id[:19]}")
PY
