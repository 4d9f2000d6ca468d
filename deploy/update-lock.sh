#!/bin/sh
# Regenerate deploy/requirements.lock, the exact versions (with their hashes) the image installs.
#
#   deploy/update-lock.sh                          # after a change to pyproject.toml: keeps every pin
#                                                  # it can, adds and removes what changed
#   deploy/update-lock.sh --upgrade                # every package to its newest allowed version
#   deploy/update-lock.sh --upgrade-package flask  # one package (repeat the option for more)
#
# pip-compile resolves pyproject.toml's dependencies, the `flower` extra (the queue monitor of
# docker-compose.yml) and the build backend (setuptools, so the image builds the project offline
# from the lock) for Python 3.11, the image's Python. Run it with Python 3.11 on Linux x86-64, like
# the image, and commit the lock with the change that needed it.
set -eu
cd "$(dirname "$0")/.."
python=${PYTHON:-python3.11}
"$python" -c 'import sys; assert sys.version_info[:2] == (3, 11), "the lock is for Python 3.11, as the image"'
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
"$python" -m venv "$tools"
"$tools/bin/pip" install --quiet "pip-tools==7.6.2"
CUSTOM_COMPILE_COMMAND="deploy/update-lock.sh" "$tools/bin/pip-compile" --quiet --strip-extras --extra flower --all-build-deps --allow-unsafe \
    --generate-hashes --no-emit-index-url --no-emit-find-links \
    --output-file deploy/requirements.lock "$@" pyproject.toml
