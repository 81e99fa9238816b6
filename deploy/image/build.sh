#!/usr/bin/env bash
# Builds the image of the load test, the simulations and the echo servers to a tar, without a
# Docker daemon (Jib): loadtest/target/rpc-load-lab-image.tar, named rpc-load-lab:latest.
#   deploy/image/build.sh              base eclipse-temurin:17-jre, pulled from Docker Hub
#   deploy/image/build.sh --local-jre  base made from this machine's JDK (deploy/image/jre-base.sh):
#                                      no registry needed, as in CI here
# To push instead: ./mvnw -pl loadtest -am package jib:build -DskipTests -Dimage.name=<registry>/rpc-load-lab:<tag>
set -euo pipefail
cd "$(dirname "$0")/../.."
base=()
if [ "${1:-}" = "--local-jre" ]; then
  deploy/image/jre-base.sh loadtest/target/jre-base.tar
  base=("-Djib.from.image=tar://$PWD/loadtest/target/jre-base.tar")
fi
./mvnw -B -q -pl loadtest -am package jib:buildTar -DskipTests "${base[@]}"
ls -l loadtest/target/rpc-load-lab-image.tar
