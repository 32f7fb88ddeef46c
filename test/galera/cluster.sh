#!/usr/bin/env bash
# A 3-node MariaDB Galera cluster on loopback for the Galera suite (test/galera, docs/scaling.md
# "MariaDB Galera"). Its own ports, datadirs and sockets under GALERA_DIR: the machine's MariaDB
# (3306) is never touched. Installs Debian's rsync (the SST method) when it is missing.
#
#   cluster.sh start             bootstrap node 1, join nodes 2 and 3 (SST by rsync), wait for Synced
#   cluster.sh stop              stop every node (SIGTERM, then SIGKILL after 30 s)
#   cluster.sh kill N            kill -9 node N (a crash: no clean shutdown)
#   cluster.sh rejoin N          once the other nodes have dropped node N from their view, restart
#                                it from its recovered position (--wsrep-recover), so it catches up
#                                by IST from a donor's gcache; waits for Synced
#   cluster.sh isolate N on|off  cut node N off from the others (gmcast.isolate=1) or reconnect it
#   cluster.sh status            wsrep_cluster_size / wsrep_local_state_comment of each node
#   cluster.sh sql N 'SQL'       run SQL on node N
#
# Ports: SQL 3311-3313 (GALERA_SQL_PORT_BASE+N), group communication 4571-4573, IST 4581-4583,
# SST 4591-4593. Settings the service needs on Galera: binlog_format=ROW,
# innodb_autoinc_lock_mode=2, utf8mb4; small buffers for a shared CI machine.
set -euo pipefail

GALERA_DIR=${GALERA_DIR:-/tmp/checkout-galera}
SQL_BASE=${GALERA_SQL_PORT_BASE:-3310}
GCOMM_BASE=${GALERA_GCOMM_PORT_BASE:-4570}
IST_BASE=${GALERA_IST_PORT_BASE:-4580}
SST_BASE=${GALERA_SST_PORT_BASE:-4590}
NODES=(1 2 3)
# As root, the nodes run as the mysql user: rsync's SST daemon started by root writes as nobody.
if [ "$(id -u)" = 0 ]; then RUN_AS=mysql; else RUN_AS=$(id -un); fi
PROVIDER=${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}

die() { echo "cluster.sh: $*" >&2; exit 1; }
node_dir() { echo "$GALERA_DIR/node$1"; }
sql_port() { echo $((SQL_BASE + $1)); }
sock() { echo "$(node_dir "$1")/mysqld.sock"; }
pid_of() { cat "$(node_dir "$1")/node.pid" 2>/dev/null || true; }
running() { local pid; pid=$(pid_of "$1"); [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }
sql() { local n=$1; shift; mysql --no-defaults -uroot -S "$(sock "$n")" -N -B -e "$*"; }
status_var() { sql "$1" "SHOW GLOBAL STATUS LIKE '$2'" 2>/dev/null | awk '{print $2}'; }

ensure_packages() {
  [ -x "$PROVIDER" ] || [ -f "$PROVIDER" ] || install_debian galera-4
  command -v rsync >/dev/null || install_debian rsync
  command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || die "mariadbd is not installed"
}
install_debian() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "$@" || { apt-get update -q && apt-get install -y -q "$@"; }
}

write_config() { # node
  local n=$1 dir; dir=$(node_dir "$n")
  local members="" m
  for m in "${NODES[@]}"; do members+="${members:+,}127.0.0.1:$((GCOMM_BASE + m))"; done
  mkdir -p "$dir/data"
  cat >"$dir/my.cnf" <<CNF
[mysqld]
user=$RUN_AS
datadir=$dir/data
socket=$dir/mysqld.sock
pid-file=$dir/mysqld.pid
log-error=$dir/error.log
port=$(sql_port "$n")
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
default-storage-engine=InnoDB
binlog_format=ROW
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=64M
innodb_log_file_size=16M
innodb_flush_log_at_trx_commit=2
performance_schema=OFF
max_connections=300
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=checkout_galera_test
wsrep_cluster_address=gcomm://$members
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$((GCOMM_BASE + n))
wsrep_node_incoming_address=127.0.0.1:$(sql_port "$n")
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((SST_BASE + n))
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$((GCOMM_BASE + n));ist.recv_addr=127.0.0.1:$((IST_BASE + n));gcache.size=128M;gcache.recover=yes;evs.suspect_timeout=PT5S;evs.inactive_timeout=PT10S;pc.wait_prim_timeout=PT10S"
wsrep_slave_threads=2
[client]
socket=$dir/mysqld.sock
CNF
}

launch() { # node, extra args...
  local n=$1; shift
  local dir; dir=$(node_dir "$n")
  # setsid: the node is not in the caller's process group (a CI step's Ctrl-C or a job kill).
  setsid /usr/sbin/mariadbd --defaults-file="$dir/my.cnf" "$@" </dev/null >>"$dir/stdout.log" 2>&1 &
  echo $! >"$dir/node.pid"
}

wait_synced() { # node, seconds
  local n=$1 limit=${2:-120}
  for _ in $(seq "$limit"); do
    if [ "$(status_var "$n" wsrep_local_state)" = 4 ] && [ "$(status_var "$n" wsrep_ready)" = ON ]; then return 0; fi
    running "$n" || { tail -n 30 "$(node_dir "$n")/error.log" >&2; die "node $n exited"; }
    sleep 1
  done
  tail -n 30 "$(node_dir "$n")/error.log" >&2
  die "node $n not Synced after $limit s"
}

start() {
  ensure_packages
  for n in "${NODES[@]}"; do running "$n" && die "node $n is already running (cluster.sh stop first)"; done
  rm -rf "$GALERA_DIR" && mkdir -p "$GALERA_DIR"
  for n in "${NODES[@]}"; do write_config "$n"; done
  [ "$RUN_AS" = "$(id -un)" ] || chown -R "$RUN_AS" "$GALERA_DIR"
  mariadb-install-db --defaults-file="$(node_dir 1)/my.cnf" --auth-root-authentication-method=normal --skip-test-db >"$(node_dir 1)/install.log" 2>&1 \
    || { cat "$(node_dir 1)/install.log" >&2; die "mariadb-install-db failed"; }
  launch 1 --wsrep-new-cluster
  wait_synced 1 60
  # The service connects over TCP as root@127.0.0.1 without a password (as on the CI's server).
  sql 1 "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION"
  for n in 2 3; do launch "$n"; wait_synced "$n" 120; done
  status
}

stop() {
  local n pid
  for n in "${NODES[@]}"; do pid=$(pid_of "$n"); [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 30); do
    local any=0
    for n in "${NODES[@]}"; do running "$n" && any=1; done
    [ $any = 0 ] && return 0
    sleep 1
  done
  for n in "${NODES[@]}"; do pid=$(pid_of "$n"); [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true; done
}

crash() { # node
  local pid; pid=$(pid_of "$1")
  [ -n "$pid" ] || die "node $1 has no pid"
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  rm -f "$(node_dir "$1")/node.pid"
}

# Waits until every running node's view has dropped node N (wsrep_cluster_size = running nodes).
# A crashed node restarted while the survivors still count its old incarnation (within
# evs.suspect_timeout) makes them re-form the view around two incarnations at once; seen here, that
# install round timed out and left the survivors non-primary for a second (every write refused).
wait_evicted() { # node, seconds
  local n=$1 limit=${2:-60} peer peers
  for _ in $(seq $((limit * 5))); do
    peers=0
    for peer in "${NODES[@]}"; do
      [ "$peer" = "$n" ] && continue
      running "$peer" || continue
      peers=$((peers + 1))
    done
    local settled=1
    for peer in "${NODES[@]}"; do
      [ "$peer" = "$n" ] && continue
      running "$peer" || continue
      [ "$(status_var "$peer" wsrep_cluster_size)" = "$peers" ] && [ "$(status_var "$peer" wsrep_ready)" = ON ] || settled=0
    done
    [ $settled = 1 ] && return 0
    sleep 0.2
  done
  die "the other nodes still count node $n after $limit s"
}

rejoin() { # node
  local n=$1 dir position; dir=$(node_dir "$n")
  running "$n" && die "node $n is running"
  wait_evicted "$n" 60
  /usr/sbin/mariadbd --defaults-file="$dir/my.cnf" --wsrep-recover --log-error="$dir/recover.log" >/dev/null 2>&1 || true
  position=$(sed -n 's/.*WSREP: Recovered position: *\([^ ]*\).*/\1/p' "$dir/recover.log" | tail -n 1)
  [ -n "$position" ] || die "node $n: no recovered position in $dir/recover.log"
  echo "node $n: recovered position $position"
  launch "$n" --wsrep_start_position="$position"
  wait_synced "$n" 120
}

isolate() { # node, on|off
  local value; [ "$2" = on ] && value=1 || value=0
  sql "$1" "SET GLOBAL wsrep_provider_options='gmcast.isolate=$value'"
}

status() {
  for n in "${NODES[@]}"; do
    if running "$n"; then
      echo "node $n (port $(sql_port "$n")): size=$(status_var "$n" wsrep_cluster_size) state=$(status_var "$n" wsrep_local_state_comment) ready=$(status_var "$n" wsrep_ready)"
    else
      echo "node $n (port $(sql_port "$n")): down"
    fi
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  kill) crash "${2:?node}" ;;
  rejoin) rejoin "${2:?node}" ;;
  isolate) isolate "${2:?node}" "${3:?on|off}" ;;
  status) status ;;
  sql) sql "${2:?node}" "${3:?SQL}" ;;
  *) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
