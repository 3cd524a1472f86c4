# Installs what Focal needs to build, when it is missing. Sourced by the other scripts.
#
# Needs: a Swift 6 toolchain (swift.org or /opt/swift), and Debian/Ubuntu packages
# for JavaScriptCore (libjavascriptcoregtk-4.1-dev), SQLite, zlib and pkg-config.

if [ -d /opt/swift/usr/bin ] && ! command -v swift >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "error: no Swift toolchain found; install Swift 6.1 or newer (https://www.swift.org/install/linux/)" >&2
  exit 2
fi

focal_missing_packages() {
  local missing=()
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
  pkg-config --exists javascriptcoregtk-4.1 2>/dev/null || missing+=(libjavascriptcoregtk-4.1-dev)
  pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
  pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
  echo "${missing[@]:-}"
}

# Installs Debian packages (as root, or through sudo), quietly.
focal_apt_install() {
  echo "Installing missing packages: $*" >&2
  local sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

missing=$(focal_missing_packages)
# shellcheck disable=SC2086
if [ -n "$missing" ]; then focal_apt_install $missing; fi
