#!/usr/bin/env bash
# Runs the image the way deploy/kubernetes runs it, without a cluster or a container runtime: the
# image tar's layers unpacked into a root folder, then the server, the injectors and the merge of the
# manifests (their args, env and ConfigMap, read by .ci/check-manifests.mjs --commands) each in a
# chroot with /proc and /dev, on loopback, with a short load instead of the ConfigMap's. Checks the
# merged counts against the injectors'. Needs root (chroot, mount), node with NODE_PATH as for the
# manifest check, and the image tar (deploy/image/build.sh).
#   deploy/image/smoke.sh [image.tar]
set -euo pipefail
cd "$(dirname "$0")/../.."
image="$(readlink -f "${1:-loadtest/target/rpc-load-lab-image.tar}")"
work="$(mktemp -d)"
rootfs="$work/rootfs"
pids=()
# Each container runs under timeout, which leads a process group of its own (pid = group id): stop
# the whole group, give its JVM up to 15 s to end cleanly, then kill what is left of it.
cleanup() {
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done
  for _ in $(seq 30); do
    alive=0
    for p in "${pids[@]}"; do kill -0 -- "-$p" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.5
  done
  for p in "${pids[@]}"; do kill -9 -- "-$p" 2>/dev/null || true; done
  umount "$rootfs/proc" 2>/dev/null || true
  umount "$rootfs/dev" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/image" "$rootfs"
tar xf "$image" -C "$work/image"
python3 - "$work/image" "$rootfs" <<'PY'
import json, os, sys, tarfile
image, rootfs = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(image, "manifest.json")))[0]
for layer in manifest["Layers"]:
    with tarfile.open(os.path.join(image, layer)) as t:
        t.extractall(rootfs)
config = json.load(open(os.path.join(image, manifest["Config"])))["config"]
json.dump(config, open(os.path.join(rootfs, "..", "config.json"), "w"))
PY
mkdir -p "$rootfs/proc" "$rootfs/dev" "$rootfs/results" "$rootfs/etc"
mount -t proc proc "$rootfs/proc"
mount --bind /dev "$rootfs/dev"
# The Service's name on loopback, as the cluster's DNS would give its address.
printf '127.0.0.1 localhost dubbo-echo\n' > "$rootfs/etc/hosts"
commands="$(node .ci/check-manifests.mjs --commands)"
chroot="$(command -v chroot)"
timeout="$(command -v timeout)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_at=$(date -u -d '+40 seconds' +%Y-%m-%dT%H:%M:%SZ)

# argv of one container: the image's entrypoint, then its args with $(VAR) expanded from the env
# given; the server on loopback and a free port, the injectors on a short load.
argv() { # role index
  python3 - "$work/config.json" "$1" "$2" "$port" "$start_at" "$commands" <<'PY'
import json, re, sys
config, role, index, port, start_at, commands = json.load(open(sys.argv[1])), *sys.argv[2:]
c = json.loads(commands)
env = dict(c["settings"], INJECTOR_INDEX=index, START_AT=start_at)
args = [re.sub(r"\$\((\w+)\)", lambda m: env[m.group(1)], a) for a in c[role]]
args = [a.replace("0.0.0.0", "127.0.0.1").replace(":20880", ":" + port).replace("20880", port) for a in args]
# Metrics ports: one machine here, so each process its own (the server's at port+1, injector i's at port+2+i).
args = [re.sub(r"-Dmetrics\.port=\d+", "-Dmetrics.port=" + str(int(port) + 2 + int(index)), a) for a in args]
args = [str(int(port) + 1) if i > 0 and args[i - 1] == "--metrics-port" else a for i, a in enumerate(args)]
if role == "injector":  # the ConfigMap's JAVA_TOOL_OPTIONS, shortened
    args = ["-Dlevels=5", "-Drates=200", "-Dduration=4", "-Dwarmup=2"] + args
print("\0".join(config["Entrypoint"] + args), end="")
PY
}
run() { # role index log
  local -a cmd
  mapfile -d '' cmd < <(argv "$1" "$2")
  local -a envs
  mapfile -t envs < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1])).get("Env", [])))' "$work/config.json")
  # exec: the job's pid is timeout's own, and so its process group's (see cleanup)
  exec env -i "${envs[@]}" "$timeout" 300 "$chroot" "$rootfs" "${cmd[@]}" > "$3" 2>&1
}
run server 0 "$work/server.log" &
pids+=($!)
for _ in $(seq 60); do grep -q '^READY' "$work/server.log" 2>/dev/null && break; sleep 1; done
grep -q '^READY' "$work/server.log" || { echo "error: the server did not start:"; tail -5 "$work/server.log"; exit 1; }
n=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["settings"]["INJECTORS"])' "$commands")
injectors=()
for i in $(seq 0 $((n - 1))); do
  run injector "$i" "$work/injector-$i.log" &
  injectors+=($!)
done
run merge 0 "$work/merge.log" &
merge=$!
status=0
for i in $(seq 0 $((n - 1))); do
  wait "${injectors[$i]}" || { status=$?; echo "error: injector $i exited $status:"; tail -20 "$work/injector-$i.log"; }
done
wait "$merge" || { status=$?; echo "error: the merge exited $status:"; tail -20 "$work/merge.log"; }
[ "$status" -eq 0 ] || exit 1
served=$(python3 - "$((port + 1))" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
print(int(float(next(l.split()[-1] for l in text.splitlines() if l.startswith("echo_server_calls_total{")))))
PY
) || { echo "error: the server's metrics endpoint (--metrics-port) did not answer"; exit 1; }
echo "smoke: the server's own metrics endpoint counts $served calls served"
python3 - "$rootfs/results" "$n" <<'PY'
import glob, json, sys
results, n = sys.argv[1], int(sys.argv[2])
merged = json.load(open(f"{results}/merged/rpc-summary.json"))
runs = [json.load(open(p)) for p in sorted(glob.glob(f"{results}/injector-*/*/rpc-summary.json"))]
assert len(runs) == n, f"{len(runs)} injector summaries, {n} expected"
for name in ("echo 5 clients (async)", "echo 200 calls/s (async)"):
    total = sum(r["requests"][name]["count"] for r in runs)
    assert total > 0 and merged["requests"][name]["count"] == total, (name, merged["requests"][name]["count"], total)
    print(f"smoke: {name}: merged {total} calls = " + " + ".join(str(r["requests"][name]["count"]) for r in runs)
          + f"; p99 merged {merged['requests'][name]['p99']} µs, injectors "
          + ", ".join(str(r["requests"][name]["p99"]) for r in runs))
PY
echo "smoke: the image ran the manifests' server, $n injectors and the merge: OK"
