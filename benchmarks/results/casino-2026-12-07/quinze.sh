#!/bin/bash
. /work/venv/bin/activate
D=/work/wt-casino/benchmarks/results/casino-2026-12-07
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" > /tmp/casino/quinze-times.txt
cd /work/main && /usr/bin/time -f "main %e s wall %U s user %S s sys" nice -n 10 python -m solver odds quinze --set draw=doubled --timeout 0 --json > /tmp/casino/q-main.json 2>> /tmp/casino/quinze-times.txt
echo "between $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/casino/quinze-times.txt
cd /work/wt-casino && /usr/bin/time -f "branch %e s wall %U s user %S s sys" nice -n 10 python -m solver odds quinze --set draw=doubled --timeout 0 --json > /tmp/casino/q-new.json 2>> /tmp/casino/quinze-times.txt
echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/casino/quinze-times.txt
cd /work/wt-casino && /usr/bin/time -f "branch default timeout %e s wall" nice -n 10 python -m solver odds quinze --set draw=doubled > /tmp/casino/q-new-default.txt 2>> /tmp/casino/quinze-times.txt; echo "exit $?" >> /tmp/casino/quinze-times.txt
