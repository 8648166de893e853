# Shared set-up for the scripts here (sourced, not run): install the Debian packages that are
# missing (as root, as the scripts assume), then create .venv and install Remora into it.
# Usage: setup_remora SPEC PACKAGE...   e.g. setup_remora '.[dev]' bubblewrap chromium
# A package is missing when its command (bubblewrap -> bwrap, chromium-driver -> chromedriver,
# neovim -> nvim, otherwise its own name) is not on PATH.

setup_remora() {
  local spec="$1"
  shift
  local missing=() package command
  for package in "$@"; do
    case "$package" in
      bubblewrap) command=bwrap ;;
      chromium-driver) command=chromedriver ;;
      neovim) command=nvim ;;
      *) command="$package" ;;
    esac
    command -v "$command" >/dev/null 2>&1 || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e "$spec"
}
