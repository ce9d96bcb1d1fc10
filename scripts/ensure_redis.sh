#!/usr/bin/env bash
# Make sure a Redis server answers on 127.0.0.1:6379, installing and starting one if needed.
set -eu
ping() { (exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && timeout 2 head -c 5 <&3 | grep -q PONG) 2>/dev/null; }
ping && exit 0
if ! command -v redis-server >/dev/null 2>&1; then
  echo "Redis is not installed; installing redis-server from Debian's packages." >&2
  if [ "$(id -u)" -ne 0 ]; then echo "Need root to apt-get install redis-server; install it and retry." >&2; exit 1; fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
mkdir -p /tmp/veterans-ai-redis
redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
  --dir /tmp/veterans-ai-redis --logfile /tmp/veterans-ai-redis/redis.log
for _ in $(seq 1 50); do ping && exit 0; sleep 0.1; done
echo "Redis did not start on 127.0.0.1:6379; see /tmp/veterans-ai-redis/redis.log." >&2
exit 1
