#!/bin/bash
# Build .device/: what `benchmarks/device/run.sh` needs on a lent many-core machine that
# cannot reach PyPI or Debian (docs/performance.md, "On a many-core machine").
#
#   bash benchmarks/device/bundle.sh          # here, once (about 55 MB, ignored by git)
#
# Then carry `.device` in the device call and run `bash benchmarks/device/run.sh`.
# .device/wheels: the packages `remora analyze` imports with the openai provider, at the
# versions of this checkout's .venv (what the tests ran), built for the device's CPython
# (DEVICE_PYTHON, default 3.12); not the embedded model's (xllamacpp, gguf: never loaded
# there). .device/bench: the pinned SQLAlchemy sdist run.sh reads, sha256 checked by scale.py
# (only it: the working tree and .device travel together under 64 MiB).
# .device/bwrap: bubblewrap and its libraries from Debian, for a machine without it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/.device"
python=${PYTHON:-$root/.venv/bin/python}
device_python=${DEVICE_PYTHON:-3.12}
# What the analyze command imports with the openai provider (and what those import).
packages="aiohappyeyeballs aiohttp aiosignal annotated-doc annotated-types anyio attrs click
coverage docstring-parser frozenlist idna iniconfig jinja2 jsonschema jsonschema-specifications
libcst markdown-it-py markupsafe mdurl merge3 multidict packaging pluggy propcache pydantic
pydantic-core pydantic-monty pydantic-monty-client pydantic-monty-runtime pygments pytest
python-dateutil python-multipart pyyaml referencing regex rich rpds-py ruff shellingham sniffio
starlette time-machine tree-sitter tree-sitter-python typer typing-extensions typing-inspection
watchfiles yarl"

rm -rf "$out" && mkdir -p "$out/wheels" "$out/bench" "$out/bwrap"
pins=()
for name in $packages; do
  version=$("$python" -m pip show "$name" 2>/dev/null | awk '/^Version:/ {print $2}')
  if [ -z "$version" ]; then
    echo "bundle.sh: $name is not installed in $python's environment; run scripts/test.sh once" >&2
    exit 1
  fi
  pins+=("$name==$version")
done
platforms=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 \
  manylinux1_x86_64 manylinux_2_24_x86_64 manylinux_2_31_x86_64 manylinux_2_34_x86_64; do
  platforms+=(--platform "$p")
done
"$python" -m pip download --quiet --no-deps --only-binary=:all: --implementation cp \
  --python-version "$device_python" "${platforms[@]}" -d "$out/wheels" "${pins[@]}"

"$python" "$root/benchmarks/scale.py" --sizes 20000 --discovery-only --cache "$out/bench" \
  > /dev/null

debs=$(mktemp -d)
(cd "$debs" && apt-get download -q bubblewrap libcap2 libselinux1 libpcre2-8-0 > /dev/null)
for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$debs/root"; done
cp "$debs/root/usr/bin/bwrap" "$out/bwrap/bwrap.real"
find "$debs/root" -name 'lib*.so.*' -type f -exec cp {} "$out/bwrap/" \;
for lib in "$out"/bwrap/lib*.so.*; do  # the names the binary asks for (libcap.so.2, ...)
  soname=$(basename "$lib" | sed -E 's/(\.so\.[0-9]+).*/\1/')
  [ -e "$out/bwrap/$soname" ] || mv "$lib" "$out/bwrap/$soname"
done
rm -rf "$debs"
du -sh "$out"
