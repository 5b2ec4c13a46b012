# Sourced by Tools/test: a throwaway PostgreSQL cluster for the PostgreSQL store's tests.
# start_test_postgres installs Debian's `postgresql` when root and missing, creates a cluster in a
# temporary directory owned by `postgres` (initdb refuses to run as root), starts it on a free
# loopback port and exports ORITSUBUSHI_TEST_POSTGRES=postgres://postgres@127.0.0.1:PORT/postgres.
# stop_test_postgres stops it and removes the directory; start_test_postgres traps it on EXIT, so
# it runs also when the tests fail. Without root and without PostgreSQL it prints what to install
# and returns 0: the PostgreSQL tests then skip (and fail under CI=true).
# The cluster also speaks TLS (plain connections keep working): test_postgres_tls writes a CA, a
# server certificate for 127.0.0.1 and localhost, a client certificate for the role
# oritsubushi_cert (which logs in by certificate alone) and a second CA that signed nothing into
# DIR/tls, exported as ORITSUBUSHI_TEST_POSTGRES_TLS (the TLS tests, PostgresTLSTests); it listens
# on 127.0.0.2 too, an address its certificate does not name.
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
    local tls="" hba="$TEST_POSTGRES_DIR/cluster/pg_hba.conf"
    if test_postgres_tls "$TEST_POSTGRES_DIR/tls"; then
        tls="-c ssl=on -c ssl_cert_file=$TEST_POSTGRES_DIR/tls/server.crt -c ssl_key_file=$TEST_POSTGRES_DIR/tls/server.key"
        tls+=" -c ssl_ca_file=$TEST_POSTGRES_DIR/tls/ca.crt"
        # The first matching line decides: the certificate role ahead of initdb's trust lines
        # (written in place, so the file keeps its owner).
        { echo "hostssl all oritsubushi_cert 127.0.0.1/32 cert"; cat "$hba"; echo "host all all 127.0.0.2/32 trust"; } >"$hba.new"
        cat "$hba.new" >"$hba" && rm "$hba.new"
    fi
    "${as[@]}" "$bin/pg_ctl" -D "$TEST_POSTGRES_DIR/cluster" -l "$TEST_POSTGRES_DIR/pg.log" -w \
        -o "-p $port -k $TEST_POSTGRES_DIR -c listen_addresses=127.0.0.1,127.0.0.2 -c max_connections=200 -c fsync=off $tls" start >/dev/null \
        || { cat "$TEST_POSTGRES_DIR/pg.log" >&2; return 1; }
    TEST_POSTGRES_BIN=$bin
    export ORITSUBUSHI_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres"
    if [ -n "$tls" ]; then
        "${as[@]}" "$bin/psql" -h "$TEST_POSTGRES_DIR" -p "$port" -U postgres -d postgres -q \
            -c "CREATE ROLE oritsubushi_cert LOGIN SUPERUSER" >/dev/null \
            && export ORITSUBUSHI_TEST_POSTGRES_TLS="$TEST_POSTGRES_DIR/tls"
    fi
    echo "PostgreSQL test cluster: $ORITSUBUSHI_TEST_POSTGRES ($TEST_POSTGRES_DIR)" >&2
}

# test_postgres_tls DIR: ca.crt signed server.crt (CN and SAN 127.0.0.1 and localhost, key
# server.key, readable by the cluster's owner alone as PostgreSQL demands) and client.crt (CN
# oritsubushi_cert, key client.key); other-ca.crt signed nothing. P-256 keys, ten days. Returns 1
# (the TLS tests then skip, and fail under CI=true) without openssl.
test_postgres_tls() {
    local dir=$1
    command -v openssl >/dev/null 2>&1 \
        || { echo "note: openssl is not installed; the PostgreSQL TLS tests will skip (apt-get install openssl)" >&2; return 1; }
    mkdir -p "$dir" && (
        cd "$dir" || exit 1
        local ca
        for ca in ca other-ca; do
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 10 \
                -subj "/CN=oritsubushi test $ca" -keyout "$ca.key" -out "$ca.crt" 2>/dev/null || exit 1
        done
        local name cn
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext
        printf 'extendedKeyUsage=clientAuth\n' >client.ext
        for name in server client; do
            cn=127.0.0.1
            [ "$name" = client ] && cn=oritsubushi_cert
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$cn" \
                -keyout "$name.key" -out "$name.csr" 2>/dev/null || exit 1
            openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 10 \
                -extfile "$name.ext" -out "$name.crt" 2>/dev/null || exit 1
        done
        chmod 600 server.key
        [ "$(id -u)" = 0 ] && chown postgres server.key
        chmod 755 . && chmod 644 ./*.crt
    ) || { echo "error: openssl could not make the test certificates in $dir" >&2; return 1; }
}

stop_test_postgres() {
    [ -n "${TEST_POSTGRES_DIR:-}" ] || return 0
    local as=()
    [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
    "${as[@]}" "$TEST_POSTGRES_BIN/pg_ctl" -D "$TEST_POSTGRES_DIR/cluster" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$TEST_POSTGRES_DIR"
    TEST_POSTGRES_DIR=
}
