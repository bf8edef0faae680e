# Sourced inside 'ip netns exec peer bash -c ...' in the guest: the functions and paths the
# guest script uses, which a new shell does not inherit.
java_run() { "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 "$@"; }
