#!/usr/bin/env bash
# Builds and runs the examples project (examples/) as a user's project is built: against
# verbs4j's installed artifacts, not the reactor. The BOM, the parent, the API and the soft
# provider are installed into a repository of the run's own (target/examples-repo), so the
# user's ~/.m2 gets no verbs4j artifact; everything else comes from the local repository the
# build has already filled (~/.m2/repository, or VERBS4J_USER_REPO), read as a file URL, so
# no network is needed. The example then runs on the module path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk.sh
use_jdk25
. scripts/maven.sh
use_maven
# One version everywhere: the build's, the BOM's, and the one the example asks for.
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n 1)
bom_version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' bom/pom.xml | head -n 1)
example_version=$(sed -n 's:.*<verbs4j.version>\(.*\)</verbs4j.version>.*:\1:p' examples/pom.xml)
log_version=$(sed -n 's:.*<verbs4j.version>\(.*\)</verbs4j.version>.*:\1:p' examples/replicated-log/pom.xml)
if [ "$version" != "$bom_version" ] || [ "$version" != "$example_version" ] || [ "$version" != "$log_version" ]; then
    echo "FAILED: versions differ: build $version, bom/pom.xml $bom_version, examples/pom.xml $example_version," \
         "examples/replicated-log/pom.xml $log_version" >&2
    exit 1
fi
repo="$root/target/examples-repo"
settings="$root/target/examples-settings.xml"
user_repo="${VERBS4J_USER_REPO:-$HOME/.m2/repository}"
mkdir -p "$root/target"
cat > "$settings" <<SETTINGS
<settings>
  <localRepository>$repo</localRepository>
  <mirrors>
    <mirror><id>build-repository</id><mirrorOf>*</mirrorOf><url>file://$user_repo</url></mirror>
  </mirrors>
</settings>
SETTINGS
echo "== examples: installing the BOM, the API and both providers (the ibverbs one with its platform jar) into $repo"
"$MVN" -B -ntp -q -Dstyle.color=never -s "$settings" -pl :verbs4j-parent,bom,java-api,java-provider,native install -DskipTests
echo "== examples: building examples/ against the installed artifacts and running it on the module path"
log="$root/target/examples-run.log"
"$MVN" -B -ntp -q -Dstyle.color=never -s "$settings" -f examples/pom.xml clean package exec:exec \
    -Dverbs4j.example.devices=soft0=127.0.0.1:27971,soft1=127.0.0.2:27971 | tee "$log"
# The ibverbs provider came from the installed jars and JavaCPP loaded its JNI library from the
# platform jar: it lists devices, or libibverbs' own answer why there are none.
if ! grep -q '^ibverbs provider: module dev.verbs4j.ibverbs, ' "$log" || grep -q 'binding cannot be loaded' "$log"; then
    echo "FAILED: the example did not load the ibverbs provider's JNI library from its platform jar" >&2
    exit 1
fi
echo "== examples: building and testing examples/replicated-log against the installed artifacts"
"$MVN" -B -ntp -q -Dstyle.color=never -s "$settings" -f examples/replicated-log/pom.xml clean package
