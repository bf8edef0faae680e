# Sourced by the kernel pairing scripts: what both set up (the class path, the JVM, a work
# folder) and their checks, each one line "ok   NAME" or "FAIL NAME"; checks_end prints the
# tally and returns non-zero when a check failed.
cp=nvmeof/target/classes:$(cat nvmeof/target/vm-classpath.txt)
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
work=$(mktemp -d)
passed=0
failed=0
check() { # name command...
    local name=$1
    shift
    if "$@"; then
        echo "ok   $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        failed=$((failed + 1))
    fi
}
checks_end() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}
