#!/usr/bin/env bash
# Regenerates the committed Swift code for Protos/remote_write.proto. Run by hand after changing the
# .proto, never by the build. Needs protoc (Debian: protobuf-compiler) and protoc-gen-swift from the
# swift-protobuf version Package.resolved pins, built outside this repository:
#   git clone https://github.com/apple/swift-protobuf && cd swift-protobuf && git checkout 1.39.0
#   swift build --product protoc-gen-swift
#   PROTOC_GEN_SWIFT=$PWD/.build/debug/protoc-gen-swift /path/to/timerdeck/Protos/generate.sh
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PROTOC_GEN_SWIFT:?set PROTOC_GEN_SWIFT to the built protoc-gen-swift}"
output=Sources/Uploads/RemoteWrite
mkdir -p "$output"
protoc --plugin=protoc-gen-swift="$plugin" --proto_path=Protos \
    --swift_out="$output" --swift_opt=Visibility=Internal remote_write.proto
# The generated file starts with `// swift-format-ignore-file`: the style check skips it.
