# Sourced by the project's scripts: points JAVA_HOME at a JDK 25 or newer.
# Keeps a JAVA_HOME that already is one; else looks in /usr/lib/jvm (Temurin 25 first).
java_major() {
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -n 1
}

use_jdk25() {
    local candidate major
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
        [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
        major=$(java_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null; then
            export JAVA_HOME="$candidate"
            export PATH="$JAVA_HOME/bin:$PATH"
            return 0
        fi
    done
    echo "verbs4j needs a JDK 25 or newer: install one and set JAVA_HOME" >&2
    return 1
}
