# Sourced by Tools/* scripts: `swift build` with its log on stderr minus the noise, in one place.
# swift_build ARGS... runs `swift build ARGS...` and returns its exit status. Dropped lines:
# SwiftPM's notes on files a dependency leaves unhandled (swift-distributed-tracing's
# CMakeLists.txt), the [N/M] progress lines, and ld.gold's flood of harmless "Cannot export local
# symbol '__asan_...'" warnings under the sanitizers.
swift_build() {
    swift build "$@" 2>&1 | { grep -Ev "Cannot export|unhandled; explicitly declare|CMakeLists.txt|^\[[0-9]+/[0-9]+\]" >&2 || true; }
    return "${PIPESTATUS[0]}"
}
