#!/usr/bin/env bash
# Print the path of a Python >= 3.12: the PATH first, then pyenv's installed versions.
set -u
ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
for name in python3.14 python3.13 python3.12 python3 python; do
  candidate=$(command -v "$name" 2>/dev/null) || continue
  if ok "$candidate"; then echo "$candidate"; exit 0; fi
done
root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
for candidate in $(ls -d "$root"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -V); do
  if ok "$candidate"; then echo "$candidate"; exit 0; fi
done
echo "No Python 3.12 or newer found, on the PATH or in pyenv ($root/versions)." >&2
echo "Install one (e.g. 'apt-get install python3.12' or 'pyenv install 3.12') and run make again." >&2
exit 1
