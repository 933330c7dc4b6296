# Sourced by the tests of tests/cli (`. "$(dirname "$0")/lib.sh"`): the
# scratch folder and the count of failed checks that each of them keeps.
#   scratch DIR [SUBDIR...]  DIR emptied (made anew), with the folders given
#   fail MESSAGE             a failed check: said, counted in $fails
#   passed MESSAGE           MESSAGE if no check failed; exits 0, else 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
scratch() { rm -rf "$1" && mkdir -p "$@"; }
passed() {
    [ "$fails" -eq 0 ] && echo "$*"
    exit $((fails > 0))
}
