# Sourced by Tools/* scripts: makes sure the Debian packages the build and tests need are there.
# As root it installs what is missing; otherwise it names the packages and stops.
# Extra arguments name further tools a script needs, as PATH=PACKAGE (e.g. /usr/bin/time=time).
ensure_deps() {
    local missing=() extra
    pkg-config --exists liblz4 2>/dev/null || missing+=(liblz4-dev)
    pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    command -v lz4 >/dev/null 2>&1 || missing+=(lz4)
    command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
    # Tools/test only: headless Chromium renders the report (ReportBrowserTests). Installed as
    # root like the others; otherwise those tests say what to install (and fail under CI=true).
    # The phone app's end-to-end tests drive it through chromedriver (PhoneAppTests); its unit
    # tests and type check need node and tsc, and esbuild to check the app's bundle (Tools/test
    # runs them).
    if [ "$(basename "$0")" = test ] && [ "$(id -u)" = 0 ]; then
        command -v chromium >/dev/null 2>&1 || missing+=(chromium)
        command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
        command -v node >/dev/null 2>&1 || missing+=(nodejs)
        command -v tsc >/dev/null 2>&1 || missing+=(node-typescript)
        command -v esbuild >/dev/null 2>&1 || missing+=(esbuild)
        # DiskSyncOrderTests: the durability order on the real file system.
        command -v strace >/dev/null 2>&1 || missing+=(strace)
        # The phone app's QR codes are read back by zbarimg (Tests/WebApp/qrCode.test.mjs).
        command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
    fi
    for extra in "$@"; do
        command -v "${extra%%=*}" >/dev/null 2>&1 || missing+=("${extra#*=}")
    done
    if [ ${#missing[@]} -eq 0 ]; then return 0; fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing ${missing[*]} ..." >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "error: missing system packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
        exit 69
    fi
}
