#!/usr/bin/env bash
# Restarts the fleet's processes one at a time (after an upgrade: build first, then run this).
# Each one drains (not ready at once, still answering for DRAIN_DELAY_MS, then it finishes what is
# under way and exits); the next is restarted only when this one answers ready again and HAProxy
# has had time to take it back (2 checks of 1 s).
# Usage: deploy/rolling-restart.sh [port...]   (default: 3001 3002 3003)
set -euo pipefail
if [ "$#" -gt 0 ]; then ports=("$@"); else ports=(3001 3002 3003); fi
for port in "${ports[@]}"; do
  echo "peerpay@$port: restarting"
  systemctl restart "peerpay@$port"
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/health/ready"; then break; fi
    sleep 1
  done
  curl -fsS -o /dev/null "http://127.0.0.1:$port/health/ready" || { echo "peerpay@$port is not ready; stopping here" >&2; exit 1; }
  sleep 3
  echo "peerpay@$port: ready"
done
