# Sourced by Tools/test: a throwaway PostgreSQL cluster for the PostgreSQL store's tests.
# start_test_postgres installs Debian's `postgresql` when root and missing, creates a cluster in a
# temporary directory owned by `postgres` (initdb refuses to run as root), starts it on a free
# loopback port and exports ORITSUBUSHI_TEST_POSTGRES=postgres://postgres@127.0.0.1:PORT/postgres.
# stop_test_postgres stops it and removes the directory; start_test_postgres traps it on EXIT, so
# it runs also when the tests fail. Without root and without PostgreSQL it prints what to install
# and returns 0: the PostgreSQL tests then skip (and fail under CI=true).
# By hand: `source Tools/lib/postgres.sh; start_test_postgres; echo $ORITSUBUSHI_TEST_POSTGRES`
# (then `stop_test_postgres`, or ORITSUBUSHI_PG_KEEP=1 to leave it running after the shell exits).

postgres_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
    done
    return 1
}

start_test_postgres() {
    local bin
    if ! bin=$(postgres_bin); then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "installing postgresql ..." >&2
            DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
            bin=$(postgres_bin) || { echo "error: postgresql installed but no initdb found" >&2; return 1; }
        else
            echo "note: PostgreSQL is not installed; the PostgreSQL store tests will skip (install it with: sudo apt-get install postgresql)" >&2
            return 0
        fi
    fi
    local as=()
    [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
    TEST_POSTGRES_DIR=$(mktemp -d /tmp/oritsubushi-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres "$TEST_POSTGRES_DIR"
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo $((20000 + RANDOM % 20000)))
    [ "${ORITSUBUSHI_PG_KEEP:-}" = 1 ] || trap stop_test_postgres EXIT
    "${as[@]}" "$bin/initdb" -D "$TEST_POSTGRES_DIR/cluster" -A trust -U postgres >"$TEST_POSTGRES_DIR/initdb.log" 2>&1 \
        || { cat "$TEST_POSTGRES_DIR/initdb.log" >&2; return 1; }
    "${as[@]}" "$bin/pg_ctl" -D "$TEST_POSTGRES_DIR/cluster" -l "$TEST_POSTGRES_DIR/pg.log" -w \
        -o "-p $port -k $TEST_POSTGRES_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null \
        || { cat "$TEST_POSTGRES_DIR/pg.log" >&2; return 1; }
    TEST_POSTGRES_BIN=$bin
    export ORITSUBUSHI_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres"
    echo "PostgreSQL test cluster: $ORITSUBUSHI_TEST_POSTGRES ($TEST_POSTGRES_DIR)" >&2
}

stop_test_postgres() {
    [ -n "${TEST_POSTGRES_DIR:-}" ] || return 0
    local as=()
    [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
    "${as[@]}" "$TEST_POSTGRES_BIN/pg_ctl" -D "$TEST_POSTGRES_DIR/cluster" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$TEST_POSTGRES_DIR"
    TEST_POSTGRES_DIR=
}
