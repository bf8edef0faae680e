# Sourced by the project's scripts: finds the system's Maven (3.8 or newer) as MVN. Where
# it is missing or too old and the script runs as root with apt, installs Debian's maven
# package; otherwise says what to install. The project names no repository host itself:
# Maven takes its repositories from its own settings.
maven_version_ok() {
    local version major minor
    version=$("$1" -B --version 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | sed -n 's/^Apache Maven \([0-9][0-9.]*\).*/\1/p' | head -n 1)
    major=${version%%.*}
    minor=${version#*.}; minor=${minor%%.*}
    [ -n "$version" ] && { [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 8 ]; }; } 2>/dev/null
}

use_maven() {
    MVN=$(command -v mvn || true)
    if [ -n "$MVN" ] && maven_version_ok "$MVN"; then
        export MVN
        return 0
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing Maven (Debian's maven package)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq --no-install-recommends maven >/dev/null 2>&1 ||
            { apt-get update -qq && apt-get install -y -qq --no-install-recommends maven >/dev/null; }
        MVN=$(command -v mvn || true)
        if [ -n "$MVN" ] && maven_version_ok "$MVN"; then
            export MVN
            return 0
        fi
    fi
    echo "verbs4j builds with Maven 3.8 or newer: install it (Debian: apt-get install maven) and put mvn on the PATH" >&2
    return 1
}
